import torch
import torch.nn.functional as F
from torch import nn


class MLP(nn.Module):
    def __init__(self, dims, act=None):
        super().__init__()
        layers = []
        for ind, (dim_in, dim_out) in enumerate(zip(dims[:-1], dims[1:])):
            layers.append(nn.Linear(dim_in, dim_out))
            if ind < len(dims) - 2:
                layers.append(act if act is not None else nn.ReLU())
        self.mlp = nn.Sequential(*layers)

    def forward(self, x):
        return self.mlp(x)


class TabTransformer(nn.Module):
    def __init__(self, *, categories, num_continuous, dim, depth, heads, dim_out=1, mlp_hidden_mults=(4, 2),
                 num_special_tokens=2, attn_dropout=0.0, ff_dropout=0.0):
        super().__init__()
        self.num_categories = len(categories)
        self.num_unique_categories = sum(categories)
        self.num_special_tokens = num_special_tokens
        total_tokens = self.num_unique_categories + num_special_tokens
        offset = F.pad(torch.tensor(list(categories)), (1, 0), value=num_special_tokens)
        self.register_buffer("categories_offset", offset.cumsum(dim=-1)[:-1])
        self.category_embed = nn.Embedding(total_tokens, dim)
        layer = nn.TransformerEncoderLayer(dim, heads, dim * 4, dropout=attn_dropout, batch_first=True)
        self.transformer = nn.TransformerEncoder(layer, depth)
        self.num_continuous = num_continuous
        self.norm = nn.LayerNorm(num_continuous)
        input_size = (dim * self.num_categories) + num_continuous
        hidden_dimensions = [input_size * t for t in mlp_hidden_mults]
        self.mlp = MLP([input_size, *hidden_dimensions, dim_out])

    def forward(self, x_categ, x_cont):
        xs = []
        x_categ = x_categ + self.categories_offset
        x = self.transformer(self.category_embed(x_categ))
        xs.append(x.flatten(1))
        if self.num_continuous > 0:
            normed_cont = self.norm(x_cont)  # fails-here
            xs.append(normed_cont)
        return self.mlp(torch.cat(xs, dim=-1))
