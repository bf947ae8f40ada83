"""Cell-lineage-specific gene regulatory network construction with CEFCON (WPZgithub/CEFCON: cefcon/utils.data_preparation joining the expression AnnData with a prior gene interaction network, cefcon/cell_lineage_GRN.NetModel building the graph data in __get_PYG_data and training GRN_Encoder's graph attention layers inside a DeepGraphInfomax), CEFCON issue #7: the user's scRNA-seq matrix comes out of the log-normalisation as float64, NetModel.__get_PYG_data turns it into node features with torch.from_numpy(adata.to_df().T.to_numpy()), and the encoder's first nn.Linear gets a double tensor
source: https://github.com/WPZgithub/CEFCON/issues/7
reported-error: RuntimeError: mat1 and mat2 must have the same dtype (cefcon_GRN_model = cf.NetModel(epochs=350, repeats=3, cuda=CUDA, seed=-1); cefcon_GRN_model.run(data_li) for each lineage; the workaround in the thread: adata.X = adata.X.astype(np.float32))
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 188
root-cause: line 212
expect: DG004
"""
import math

import networkx as nx
import numpy as np
import pandas as pd

import torch
import torch.nn.functional as F
from torch import Tensor, nn


# ---- anndata / scanpy (a minimal AnnData: X, obs/var names, uns, var, varm, to_df, column subsetting)
class AnnData:
    def __init__(self, X, obs_names=None, var_names=None):
        self.X = X
        self.obs_names = pd.Index(obs_names if obs_names is not None else [str(i) for i in range(X.shape[0])])
        self.var_names = pd.Index(var_names if var_names is not None else [str(i) for i in range(X.shape[1])])
        self.uns, self.varm = {}, {}
        self.var = pd.DataFrame(index=self.var_names)

    @property
    def n_vars(self):
        return self.X.shape[1]

    def to_df(self):
        return pd.DataFrame(self.X, index=self.obs_names, columns=self.var_names)

    def __getitem__(self, idx):
        _, genes = idx
        cols = self.var_names.get_indexer(genes)
        sub = AnnData(self.X[:, cols], self.obs_names, self.var_names[cols])
        sub.uns = dict(self.uns)
        return sub


def normalize_total_log1p(adata, target_sum=1e4):
    """sc.pp.normalize_total(adata, target_sum=1e4); sc.pp.log1p(adata) on the count matrix."""
    counts = adata.X.sum(axis=1, keepdims=True)
    adata.X = np.log1p(adata.X / counts * target_sum)


# ---- cefcon/utils.py (data_preparation, reduced)
def data_preparation(input_expData, input_priorNet, additional_edges_pct=0.01):
    adata = input_expData
    adata.var_names = adata.var_names.str.upper()
    scData_genes = adata.var_names.values

    netData = input_priorNet
    netData["from"] = netData["from"].str.upper()
    netData["to"] = netData["to"].str.upper()
    netData = netData.loc[netData["from"].isin(scData_genes) & netData["to"].isin(scData_genes), :]
    netData = netData.loc[:, ["from", "to"]].drop_duplicates()

    priori_network = nx.from_pandas_edgelist(netData, source="from", target="to", create_using=nx.DiGraph)
    priori_network_nodes = np.array(priori_network.nodes())
    adata.uns["priori_network"] = priori_network

    # Only keep the genes that exist in both single cell data and the reference network
    adata = adata[:, priori_network_nodes]
    node_feature = pd.DataFrame(adata.X.T, index=priori_network_nodes)

    idx_GeneName_map = pd.DataFrame({"idx": range(len(priori_network_nodes)), "geneName": priori_network_nodes},
                                    index=priori_network_nodes)
    adata.varm["idx_GeneName_map"] = idx_GeneName_map
    edgelist = pd.DataFrame({"from": idx_GeneName_map.loc[netData["from"].tolist(), "idx"].tolist(),
                             "to": idx_GeneName_map.loc[netData["to"].tolist(), "idx"].tolist()})

    ## Additional edges with high spearman correlation
    ori_edgeNum = len(edgelist)
    edges_corr = np.absolute(np.array(node_feature.T.corr("spearman")))
    np.fill_diagonal(edges_corr, 0.0)
    x, y = np.where(edges_corr > 0.6)
    addi_top_edges = pd.DataFrame({"from": x, "to": y, "weight": edges_corr[x, y]})
    addi_top_k = int(node_feature.shape[0] * (node_feature.shape[0] - 1) * additional_edges_pct)
    if len(addi_top_edges) > addi_top_k:
        addi_top_edges = addi_top_edges.sort_values(by=["weight"], ascending=False)
        addi_top_edges = addi_top_edges.iloc[0:addi_top_k, 0:2]
    edgelist = pd.concat([edgelist, addi_top_edges.iloc[:, 0:2]], ignore_index=True)
    edgelist = edgelist.drop_duplicates(subset=["from", "to"], keep="first", inplace=False)
    print("  {} extra edges (Spearman correlation > 0.6) are added into the prior gene interaction network."
          .format(len(edgelist) - ori_edgeNum))
    adata.uns["edgelist"] = edgelist
    return adata


# ---- torch_geometric pieces used by cefcon (re-typed: remove/add self loops, scatter softmax, DeepGraphInfomax)
def remove_self_loops(edge_index):
    mask = edge_index[0] != edge_index[1]
    return edge_index[:, mask], None


def add_self_loops(edge_index, num_nodes):
    loop = torch.arange(num_nodes, dtype=edge_index.dtype, device=edge_index.device).repeat(2, 1)
    return torch.cat([edge_index, loop], dim=1), None


def scatter_softmax(src, index, num_nodes):
    src_max = torch.full((num_nodes,) + src.shape[1:], -math.inf, dtype=src.dtype, device=src.device)
    src_max = src_max.scatter_reduce(0, index.view(-1, 1).expand_as(src), src, reduce="amax")
    out = (src - src_max[index]).exp()
    out_sum = torch.zeros((num_nodes,) + src.shape[1:], dtype=src.dtype, device=src.device).index_add_(0, index, out)
    return out / (out_sum[index] + 1e-16)


class DeepGraphInfomax(nn.Module):
    def __init__(self, hidden_channels, encoder, summary, corruption):
        super().__init__()
        self.hidden_channels = hidden_channels
        self.encoder = encoder
        self.summary = summary
        self.corruption = corruption
        self.weight = nn.Parameter(torch.empty(hidden_channels, hidden_channels))
        nn.init.xavier_uniform_(self.weight)

    def forward(self, data):
        pos_z = self.encoder(data)
        neg_z = self.encoder(self.corruption(data))
        summary = self.summary(pos_z)
        return pos_z, neg_z, summary

    def discriminate(self, z, summary):
        summary = summary.t() if summary.dim() > 1 else summary
        value = torch.matmul(z, torch.matmul(self.weight, summary))
        return torch.sigmoid(value)

    def loss(self, pos_z, neg_z, summary):
        pos_loss = -torch.log(self.discriminate(pos_z, summary) + 1e-15).mean()
        neg_loss = -torch.log(1 - self.discriminate(neg_z, summary) + 1e-15).mean()
        return pos_loss + neg_loss


# ---- cefcon/cell_lineage_GRN.py (GraphAttention_layer with the COS scoring, GRN_Encoder, NetModel)
class GraphAttention_layer(nn.Module):
    def __init__(self, input_dim, output_dim, flow="source_to_target", heads=1, concat=True, dropout=0.0):
        super().__init__()
        self.input_dim, self.output_dim, self.heads = input_dim, output_dim, heads
        self.concat, self.dropout, self.flow = concat, dropout, flow
        self.lin_l = nn.Linear(input_dim, heads * output_dim, bias=False)
        self.lin_r = nn.Linear(input_dim, heads * output_dim, bias=False)
        self.bias = nn.Parameter(torch.zeros(heads * output_dim))
        self.weight_concat = nn.Parameter(torch.empty(heads * output_dim, output_dim))
        nn.init.xavier_uniform_(self.weight_concat)

    def forward(self, x, edge_index, x_auxiliary):
        N, H, C = x.size(0), self.heads, self.output_dim
        edge_index, _ = remove_self_loops(edge_index)
        edge_index, _ = add_self_loops(edge_index, num_nodes=N)
        j, i = (edge_index[0], edge_index[1]) if self.flow == "source_to_target" else (edge_index[1], edge_index[0])
        x_l = self.lin_l(x).view(-1, H, C)
        x_r = self.lin_r(x).view(-1, H, C)
        x_norm_l, x_norm_r = F.normalize(x_l, p=2., dim=-1), F.normalize(x_r, p=2., dim=-1)
        alpha = x_auxiliary[j] * torch.abs((x_norm_r[i] * x_norm_l[j]).sum(dim=-1))
        alpha = scatter_softmax(alpha / 0.25, i, N)
        alpha = F.dropout(alpha, p=self.dropout, training=self.training)
        out = x_l.new_zeros(N, H, C).index_add_(0, i, x_l[j] * alpha.view(-1, H, 1))
        out = out.view(-1, H * C) + self.bias
        return torch.matmul(out, self.weight_concat), (edge_index, alpha)


class GRN_Encoder(nn.Module):
    def __init__(self, input_dim, hidden_dim, output_dim, heads_num=1, dropout=0.0):
        super(GRN_Encoder, self).__init__()
        self.x_input = nn.Linear(input_dim, hidden_dim)
        self.act = nn.GELU()
        self.layers = nn.ModuleList([])
        dims = [hidden_dim, hidden_dim]
        for l in range(len(dims)):
            last_dim = hidden_dim if l < len(dims) - 1 else output_dim
            self.layers.append(nn.ModuleList([
                nn.BatchNorm1d(dims[l]),
                GraphAttention_layer(dims[l], dims[l], heads=heads_num, dropout=dropout),
                GraphAttention_layer(dims[l], dims[l], heads=heads_num, dropout=dropout, flow="target_to_source"),
                nn.Sequential(nn.Linear(dims[l] * 2, hidden_dim), nn.GELU(), nn.Dropout(dropout),
                              nn.Linear(hidden_dim, last_dim)),
            ]))
        self.project = nn.Linear(output_dim, output_dim * 4)

    def forward(self, data):
        x, edge_index = data["x"], data["edge_index"]
        x_auxiliary = torch.ones(x.size(0), dtype=torch.float32, device=x.device).view(-1, 1)
        x = self.x_input(x)  # fails-here
        for norm, attn_in, attn_out, ffn in self.layers:
            x = norm(x)
            x_in, _ = attn_in(x, edge_index, x_auxiliary)
            x_out, _ = attn_out(x, edge_index, x_auxiliary)
            x = ffn(torch.cat((self.act(x_in), self.act(x_out)), 1))
        self.x_embs = x
        return self.project(x)


class NetModel(object):
    def __init__(self, hidden_dim=128, output_dim=64, heads=4, dropout=0.1, epochs=500, repeats=5, seed=-1,
                 cuda=-1):
        self.hidden_dim, self.output_dim, self.heads, self.dropout = hidden_dim, output_dim, heads, dropout
        self.epochs, self.repeats = epochs, repeats
        if seed > -1:
            torch.manual_seed(seed)
        self.cuda = cuda

    def __get_PYG_data(self, adata):
        source_nodes = adata.uns["edgelist"]["from"].tolist()
        target_nodes = adata.uns["edgelist"]["to"].tolist()
        edge_index = torch.tensor([source_nodes, target_nodes], dtype=torch.long)
        # node feature
        x = torch.from_numpy(adata.to_df().T.to_numpy())  # root-cause
        self._idx_GeneName_map = adata.varm["idx_GeneName_map"]
        return {"x": x, "edge_index": edge_index}

    @staticmethod
    def __corruption(data):
        x = data["x"]
        return {"x": x[torch.randperm(x.size(0))], "edge_index": data["edge_index"]}

    @staticmethod
    def __summary(z, *args, **kwargs):
        return torch.sigmoid(torch.cat((3 * z.mean(dim=0).unsqueeze(0), z.max(dim=0)[0].unsqueeze(0),
                                        z.min(dim=0)[0].unsqueeze(0), 2 * z.median(dim=0)[0].unsqueeze(0)), dim=0))

    def run(self, adata, showProgressBar=False):
        print("[1] - Constructing cell-lineage-specific GRN...")
        print("  Lineage - {}: ".format(adata.uns["name"]))
        device = "cpu" if self.cuda == -1 else "cuda:%s" % self.cuda
        data = {k: v.to(device) for k, v in self.__get_PYG_data(adata).items()}
        input_dim = data["x"].shape[1]
        for rep in range(self.repeats):
            encoder = GRN_Encoder(input_dim, self.hidden_dim, self.output_dim, self.heads, dropout=self.dropout)
            DGI_model = DeepGraphInfomax(hidden_channels=self.output_dim * 4, encoder=encoder,
                                         summary=self.__summary, corruption=self.__corruption).to(device)
            optimizer = torch.optim.Adam(DGI_model.parameters(), lr=1e-4, weight_decay=5e-4)
            min_loss = np.inf
            print("  Iter: {}/{}".format(rep + 1, self.repeats), end="... ")
            for epoch in range(self.epochs):
                DGI_model.train()
                optimizer.zero_grad()
                pos_z, neg_z, summary = DGI_model(data)
                loss = DGI_model.loss(pos_z, neg_z, summary)
                loss.backward()
                optimizer.step()
                min_loss = min(min_loss, float(loss.item()))
            print("Min_train_loss: {}".format(min_loss))


# ---- the reporter's notebook (run_CEFCON on two lineages of a hematopoiesis-like dataset)
def load_example_data(n_cells=120, n_genes=40, seed=0):
    rng = np.random.default_rng(seed)
    genes = ["Gata1", "Klf1", "Spi1", "Cebpa", "Runx1", "Tal1", "Fli1", "Gfi1"] + \
            ["Gene%02d" % i for i in range(n_genes - 8)]
    counts = rng.poisson(rng.gamma(2.0, 2.0, n_genes), size=(n_cells, n_genes)).astype(np.float64)
    lineage = rng.choice(["Erythroid", "Myeloid"], n_cells)
    counts[lineage == "Erythroid", :2] += rng.poisson(8, ((lineage == "Erythroid").sum(), 2))
    expr = pd.DataFrame(counts, index=["cell%03d" % i for i in range(n_cells)], columns=genes)
    edges = [(a, b) for a in genes[:8] for b in genes if a != b and rng.random() < 0.35]
    prior = pd.DataFrame(edges, columns=["from", "to"])
    prior["edge_type"] = "directed"
    return expr, lineage, prior


if __name__ == "__main__":
    expr, lineage, prior_network = load_example_data()
    data = {}
    for li in ["Erythroid", "Myeloid"]:
        sub = expr[lineage == li]
        adata = AnnData(sub.to_numpy(), obs_names=sub.index, var_names=sub.columns)
        normalize_total_log1p(adata)
        data_li = data_preparation(adata, prior_network.copy())
        data_li.uns["name"] = li
        data[li] = data_li

    CUDA = 0 if torch.cuda.is_available() else -1
    cefcon_results_dict = {}
    for li, data_li in data.items():
        # We suggest setting up multiple repeats to minimize the randomness of the computation.
        cefcon_GRN_model = NetModel(hidden_dim=32, output_dim=16, heads=2, epochs=20, repeats=1, cuda=CUDA, seed=-1)
        cefcon_GRN_model.run(data_li)
        cefcon_results_dict[li] = cefcon_GRN_model
