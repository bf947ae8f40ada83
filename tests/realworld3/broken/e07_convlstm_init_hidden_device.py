"""ConvLSTM_pytorch: init_hidden builds h, c with torch.zeros (default device) instead of the conv weight's device
source: https://github.com/ndrplz/ConvLSTM_pytorch/pull/10
reported-error: RuntimeError: Expected all tensors to be on the same device (hidden state on cpu, input on cuda:0)
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (torch.cat) at line 24; on CPU: ok
root-cause: line 34
expect: DG009
"""
import torch
import torch.nn as nn


class ConvLSTMCell(nn.Module):
    def __init__(self, input_dim, hidden_dim, kernel_size, bias):
        super(ConvLSTMCell, self).__init__()
        self.input_dim = input_dim
        self.hidden_dim = hidden_dim
        self.padding = kernel_size[0] // 2, kernel_size[1] // 2
        self.conv = nn.Conv2d(in_channels=self.input_dim + self.hidden_dim,
                              out_channels=4 * self.hidden_dim,
                              kernel_size=kernel_size, padding=self.padding, bias=bias)

    def forward(self, input_tensor, cur_state):
        h_cur, c_cur = cur_state
        combined = torch.cat([input_tensor, h_cur], dim=1)  # fails-here
        combined_conv = self.conv(combined)
        cc_i, cc_f, cc_o, cc_g = torch.split(combined_conv, self.hidden_dim, dim=1)
        i, f, o, g = torch.sigmoid(cc_i), torch.sigmoid(cc_f), torch.sigmoid(cc_o), torch.tanh(cc_g)
        c_next = f * c_cur + i * g
        h_next = o * torch.tanh(c_next)
        return h_next, c_next

    def init_hidden(self, batch_size, image_size):
        height, width = image_size
        return (torch.zeros(batch_size, self.hidden_dim, height, width),  # root-cause
                torch.zeros(batch_size, self.hidden_dim, height, width))


class ConvLSTM(nn.Module):
    def __init__(self, input_dim, hidden_dim, kernel_size, num_layers, batch_first=True, bias=True):
        super(ConvLSTM, self).__init__()
        self.batch_first = batch_first
        self.num_layers = num_layers
        cell_list = []
        for i in range(num_layers):
            cur_input_dim = input_dim if i == 0 else hidden_dim
            cell_list.append(ConvLSTMCell(cur_input_dim, hidden_dim, kernel_size, bias))
        self.cell_list = nn.ModuleList(cell_list)

    def forward(self, input_tensor):
        b, _, _, h, w = input_tensor.size()
        hidden_state = [self.cell_list[i].init_hidden(b, (h, w)) for i in range(self.num_layers)]
        cur_layer_input = input_tensor
        for layer_idx in range(self.num_layers):
            h, c = hidden_state[layer_idx]
            output_inner = []
            for t in range(input_tensor.size(1)):
                h, c = self.cell_list[layer_idx](input_tensor=cur_layer_input[:, t], cur_state=[h, c])
                output_inner.append(h)
            cur_layer_input = torch.stack(output_inner, dim=1)
        return cur_layer_input, (h, c)


device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
model = ConvLSTM(input_dim=3, hidden_dim=8, kernel_size=(3, 3), num_layers=2).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
x = torch.rand(2, 5, 3, 16, 16).to(device)
target = torch.rand(2, 8, 16, 16).to(device)
for step in range(3):
    out, (h, c) = model(x)
    loss = nn.functional.mse_loss(h, target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, loss.item())
