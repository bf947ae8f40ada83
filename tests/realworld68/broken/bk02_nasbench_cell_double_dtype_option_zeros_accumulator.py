"""NASBench-PyTorch-style training of one NAS-Bench-101 cell network in double precision: the run's --dtype option (float64) is turned into a torch dtype with getattr(torch, args.dtype) and applied to the network and the batches, but Cell.forward sums the fan-in of each vertex into torch.zeros(fan_in[0].shape), a float32 accumulator; the in-place += keeps it float32 and the vertex's float64 convolution refuses it
source: https://github.com/romulus0914/NASBench-PyTorch/pull/5
reported-error: "I faced an issue when I tried to cast the model to double ... when the variable vertex_input gets initialized as torch.zeros, the default data type is FloatTensor. Hence, when the model is cast to a data type other than FloatTensor, it fails due to this initialization, as it creates a mismatch between the input and the model's parameters" (fix: torch.zeros_like(fan_in[0]))
outcome: RuntimeError: Input type (torch.FloatTensor) and weight type (torch.DoubleTensor) should be the same or input should be a MKLDNN tensor and weight is a dense tensor at line 28
root-cause: line 138
expect: DG004
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


class ConvBnRelu(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size=1, stride=1, padding=0):
        super().__init__()
        self.conv_bn_relu = nn.Sequential(
            nn.Conv2d(in_channels, out_channels, kernel_size, stride, padding, bias=False),
            nn.BatchNorm2d(out_channels),
            nn.ReLU(),
        )

    def forward(self, x):
        return self.conv_bn_relu(x)  # fails-here


class Conv3x3BnRelu(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv3x3 = ConvBnRelu(in_channels, out_channels, 3, 1, 1)

    def forward(self, x):
        return self.conv3x3(x)


class Conv1x1BnRelu(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv1x1 = ConvBnRelu(in_channels, out_channels, 1, 1, 0)

    def forward(self, x):
        return self.conv1x1(x)


class MaxPool3x3(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.maxpool = nn.MaxPool2d(3, 1, 1)

    def forward(self, x):
        return self.maxpool(x)


class Placeholder(nn.Module):
    def forward(self, x):
        return x


OP_MAP = {'conv3x3-bn-relu': Conv3x3BnRelu, 'conv1x1-bn-relu': Conv1x1BnRelu, 'maxpool3x3': MaxPool3x3}


class ModelSpec:
    def __init__(self, matrix, ops):
        self.matrix = np.array(matrix)
        self.ops = ops


def Projection(in_channels, out_channels):
    return ConvBnRelu(in_channels, out_channels, 1)


def Truncate(inputs, channels):
    input_channels = inputs.size()[1]
    if input_channels < channels:
        raise ValueError('input channel < output channels for truncate')
    elif input_channels == channels:
        return inputs
    return inputs[:, :channels, :, :]


def ComputeVertexChannels(in_channels, out_channels, matrix):
    num_vertices = np.shape(matrix)[0]
    vertex_channels = [0] * num_vertices
    vertex_channels[0] = in_channels
    vertex_channels[num_vertices - 1] = out_channels
    if num_vertices == 2:
        return vertex_channels
    in_degree = np.sum(matrix[1:], axis=0)
    interior_channels = out_channels // in_degree[num_vertices - 1]
    correction = out_channels % in_degree[num_vertices - 1]
    for v in range(1, num_vertices - 1):
        if matrix[v, num_vertices - 1]:
            vertex_channels[v] = interior_channels
            if correction:
                vertex_channels[v] += 1
                correction -= 1
    for v in range(num_vertices - 3, 0, -1):
        if not matrix[v, num_vertices - 1]:
            for dst in range(v + 1, num_vertices - 1):
                if matrix[v, dst]:
                    vertex_channels[v] = max(vertex_channels[v], vertex_channels[dst])
    return vertex_channels


class Cell(nn.Module):
    def __init__(self, spec, in_channels, out_channels):
        super().__init__()
        self.dev_param = nn.Parameter(torch.empty(0))
        self.matrix = spec.matrix
        self.num_vertices = np.shape(self.matrix)[0]
        self.vertex_channels = ComputeVertexChannels(in_channels, out_channels, self.matrix)
        self.vertex_op = nn.ModuleList([Placeholder()])
        for t in range(1, self.num_vertices - 1):
            self.vertex_op.append(OP_MAP[spec.ops[t]](self.vertex_channels[t], self.vertex_channels[t]))
        self.input_op = nn.ModuleList([Placeholder()])
        for t in range(1, self.num_vertices):
            if self.matrix[0, t]:
                self.input_op.append(Projection(in_channels, self.vertex_channels[t]))
            else:
                self.input_op.append(Placeholder())
        self.last_inop = self.input_op[self.num_vertices - 1]

    def forward(self, x):
        tensors = [x]
        out_concat = []
        for t, (inmod, outmod) in enumerate(zip(self.input_op, self.vertex_op)):
            if 0 < t < (self.num_vertices - 1):
                fan_in = []
                for src in range(1, t):
                    if self.matrix[src, t]:
                        fan_in.append(Truncate(tensors[src], torch.tensor(self.vertex_channels[t])))
                if self.matrix[0, t]:
                    fan_in.append(inmod(x))
                vertex_input = torch.zeros(fan_in[0].shape).to(self.dev_param.device)  # root-cause
                for val in fan_in:
                    vertex_input += val
                vertex_output = outmod(vertex_input)
                tensors.append(vertex_output)
                if self.matrix[t, self.num_vertices - 1]:
                    out_concat.append(tensors[t])
        if not out_concat:
            outputs = self.last_inop(tensors[0])
        else:
            outputs = out_concat[0] if len(out_concat) == 1 else torch.cat(out_concat, 1)
            if self.matrix[0, self.num_vertices - 1]:
                outputs = outputs + self.last_inop(tensors[0])
        return outputs


class Network(nn.Module):
    def __init__(self, spec, num_labels=10, in_channels=3, stem_out_channels=16, num_stacks=2, num_modules_per_stack=1):
        super().__init__()
        self.layers = nn.ModuleList([ConvBnRelu(in_channels, stem_out_channels, 3, 1, 1)])
        in_channels = out_channels = stem_out_channels
        for stack_num in range(num_stacks):
            if stack_num > 0:
                self.layers.append(nn.MaxPool2d(kernel_size=2, stride=2))
                out_channels *= 2
            for _ in range(num_modules_per_stack):
                self.layers.append(Cell(spec, in_channels, out_channels))
                in_channels = out_channels
        self.classifier = nn.Linear(out_channels, num_labels)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.classifier(torch.mean(x, (2, 3)))


matrix = [[0, 1, 1, 1, 0, 1, 0],
          [0, 0, 0, 0, 0, 0, 1],
          [0, 0, 0, 0, 0, 0, 1],
          [0, 0, 0, 0, 1, 0, 0],
          [0, 0, 0, 0, 0, 0, 1],
          [0, 0, 0, 0, 0, 0, 1],
          [0, 0, 0, 0, 0, 0, 0]]
operations = ['input', 'conv1x1-bn-relu', 'conv3x3-bn-relu', 'conv3x3-bn-relu', 'conv3x3-bn-relu', 'maxpool3x3', 'output']

parser = argparse.ArgumentParser()
parser.add_argument('--dtype', default='float64', help='precision of the network and the batches')
parser.add_argument('--epochs', type=int, default=2)
parser.add_argument('--batch_size', type=int, default=16)
parser.add_argument('--learning_rate', type=float, default=0.05)
args = parser.parse_args([])
dtype = getattr(torch, args.dtype)

x = torch.rand(64, 3, 16, 16)
y = torch.randint(0, 10, (64,))
loader = DataLoader(TensorDataset(x, y), batch_size=args.batch_size, shuffle=True)

net = Network(ModelSpec(matrix, operations)).to(dtype)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(net.parameters(), lr=args.learning_rate, momentum=0.9)
for epoch in range(args.epochs):
    for inputs, targets in loader:
        inputs = inputs.to(dtype)
        optimizer.zero_grad()
        loss = criterion(net(inputs), targets)
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f} ({loss.dtype})")
