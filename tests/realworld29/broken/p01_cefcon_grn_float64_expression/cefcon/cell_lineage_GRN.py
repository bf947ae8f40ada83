import torch
import torch.nn as nn
import torch.nn.functional as F


class GraphAttention_layer(nn.Module):
    def __init__(self, input_dim, output_dim, heads=2):
        super().__init__()
        self.heads = heads
        self.output_dim = output_dim
        self.lin = nn.Linear(input_dim, heads * output_dim, bias=False)
        self.att_src = nn.Parameter(torch.randn(heads, output_dim) * 0.1)
        self.att_dst = nn.Parameter(torch.randn(heads, output_dim) * 0.1)

    def forward(self, x, edge_index):
        n = x.size(0)
        h = self.lin(x).view(n, self.heads, self.output_dim)  # fails-here
        a_src = (h * self.att_src).sum(-1)
        a_dst = (h * self.att_dst).sum(-1)
        src, dst = edge_index
        scores = torch.full((self.heads, n, n), float("-inf"))
        scores[:, dst, src] = F.leaky_relu(a_src[src] + a_dst[dst], 0.2).t()
        scores = scores + torch.where(torch.eye(n, dtype=torch.bool), 0.0, float("-inf"))
        alpha = torch.softmax(torch.nan_to_num(scores, neginf=-1e9), dim=-1)
        return torch.einsum("hij,jhd->ihd", alpha, h).mean(1), alpha.mean(0)


class GRN_Encoder(nn.Module):
    def __init__(self, input_dim, hidden_dim=16):
        super().__init__()
        self.gat1 = GraphAttention_layer(input_dim, hidden_dim)
        self.gat2 = GraphAttention_layer(hidden_dim, hidden_dim)

    def forward(self, x, edge_index):
        h, _ = self.gat1(x, edge_index)
        h, att = self.gat2(F.elu(h), edge_index)
        return h, att


class NetModel:
    def __init__(self, hidden_dim=16, epochs=350, repeats=3, seed=-1, cuda=-1):
        self.hidden_dim = hidden_dim
        self.epochs = epochs
        self.repeats = repeats
        self.seed = seed
        self.device = torch.device(f"cuda:{cuda}" if cuda >= 0 and torch.cuda.is_available() else "cpu")
        self._att = None

    def run(self, data):
        if self.seed >= 0:
            torch.manual_seed(self.seed)
        x, edge_index = data["x"].to(self.device), data["edge_index"].to(self.device)
        atts = []
        for _ in range(self.repeats):
            model = GRN_Encoder(x.size(1), self.hidden_dim).to(self.device)
            optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
            for _ in range(self.epochs):
                optimizer.zero_grad()
                h, att = model(x, edge_index)
                pos = (h[edge_index[0]] * h[edge_index[1]]).sum(-1)
                loss = F.softplus(-pos).mean()
                loss.backward()
                optimizer.step()
            atts.append(att.detach())
        self._att = torch.stack(atts).mean(0)

    def get_network(self):
        return self._att.cpu().numpy()
