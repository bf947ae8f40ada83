from collections import OrderedDict

import numpy as np
import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class DNN(torch.nn.Module):
    def __init__(self, layers):
        super().__init__()
        layer_list = []
        for i in range(len(layers) - 2):
            layer_list.append((f"layer_{i}", torch.nn.Linear(layers[i], layers[i + 1])))
            layer_list.append((f"activation_{i}", torch.nn.Tanh()))
        layer_list.append((f"layer_{len(layers) - 2}", torch.nn.Linear(layers[-2], layers[-1])))
        self.layers = torch.nn.Sequential(OrderedDict(layer_list))

    def forward(self, x):
        return self.layers(x)


class PhysicsInformedNN:
    def __init__(self, X_u, u, X_f, layers, nu):
        self.x_u = torch.tensor(X_u[:, 0:1], requires_grad=True).float().to(device)
        self.t_u = torch.tensor(X_u[:, 1:2], requires_grad=True).float().to(device)
        self.x_f = torch.tensor(X_f[:, 0:1], requires_grad=True).float().to(device)
        self.t_f = torch.tensor(X_f[:, 1:2], requires_grad=True).float().to(device)
        self.u = torch.tensor(u).float().to(device)
        self.nu = nu
        self.dnn = DNN(layers).to(device)
        self.optimizer_Adam = torch.optim.Adam(self.dnn.parameters(), lr=1e-3)
        self.iter = 0

    def net_u(self, x, t):
        return self.dnn(torch.cat([x, t], dim=1))

    def net_f(self, x, t):
        u = self.net_u(x, t)
        u_t = torch.autograd.grad(u, t, grad_outputs=torch.ones_like(u), retain_graph=True, create_graph=True)[0]
        u_x = torch.autograd.grad(u, x, grad_outputs=torch.ones_like(u), retain_graph=True, create_graph=True)[0]
        u_xx = torch.autograd.grad(u_x, x, grad_outputs=torch.ones_like(u_x), retain_graph=True, create_graph=True)[0]
        return u_t + u * u_x - self.nu * u_xx

    def loss_func(self):
        u_pred = self.net_u(self.x_u, self.t_u)
        f_pred = self.net_f(self.x_f, self.t_f)
        return torch.mean((self.u - u_pred) ** 2) + torch.mean(f_pred ** 2)

    def train(self, nIter):
        self.dnn.train()
        for epoch in range(nIter):
            loss = self.loss_func()
            self.optimizer_Adam.zero_grad()
            loss.backward()
            self.optimizer_Adam.step()  # fails-here
            self.iter += 1
            print(f"It: {self.iter}, Loss: {loss.item():.3e}, dtype: {loss.dtype}")

    def predict(self, X):
        p = next(self.dnn.parameters())
        x = torch.tensor(X[:, 0:1], dtype=p.dtype, requires_grad=True)
        t = torch.tensor(X[:, 1:2], dtype=p.dtype, requires_grad=True)
        self.dnn.eval()
        return self.net_u(x, t).detach().cpu().numpy()
