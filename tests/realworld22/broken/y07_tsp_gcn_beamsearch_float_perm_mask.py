"""Graph ConvNet for the travelling salesman problem (graph-convnet-tsp layout): the beam search decodes tours from predicted edge probabilities and computes the parent beam of each expansion as bestScoresId / num_nodes (true division, float), then re-orders the visited-node mask with self.mask.gather(1, perm_mask)
source: https://github.com/chaitjo/graph-convnet-tsp/issues/11
reported-error: RuntimeError: gather_out_gpu(): expected dtype int64 for index (utils/beamsearch.py line 96, self.mask = self.mask.gather(1, perm_mask); perm_mask has float values)
outcome: RuntimeError: gather(): Expected dtype int32/int64 for index at line 53
root-cause: line 48
expect: DG005
"""
import numpy as np
import torch
import torch.nn as nn


# ---- models/gcn_model.py
class EdgeScorer(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.node_emb = nn.Linear(2, hidden)
        self.edge_mlp = nn.Sequential(nn.Linear(2 * hidden + 1, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, coords):
        h = self.node_emb(coords)
        n = coords.shape[1]
        dist = torch.cdist(coords, coords).unsqueeze(-1)
        pair = torch.cat([h.unsqueeze(2).expand(-1, -1, n, -1), h.unsqueeze(1).expand(-1, n, -1, -1), dist], -1)
        return torch.sigmoid(self.edge_mlp(pair).squeeze(-1))


# ---- utils/beamsearch.py
class Beamsearch:
    def __init__(self, beam_size, batch_size, num_nodes):
        self.batch_size, self.beam_size, self.num_nodes = batch_size, beam_size, num_nodes
        self.start_nodes = torch.zeros(batch_size, beam_size, dtype=torch.long)
        self.mask = torch.ones(batch_size, beam_size, num_nodes)
        self.mask.scatter_(2, self.start_nodes.unsqueeze(2), 0.0)
        self.scores = torch.zeros(batch_size, beam_size)
        self.prev_Ks, self.next_nodes = [], [self.start_nodes]

    def advance(self, trans_probs):
        if len(self.prev_Ks) > 0:
            beam_lk = trans_probs + self.scores.unsqueeze(2).expand_as(trans_probs)
        else:
            beam_lk = trans_probs.clone()
            beam_lk[:, 1:] = -1e20 * torch.ones_like(beam_lk[:, 1:])
        beam_lk = beam_lk * self.mask + (1 - self.mask) * -1e20
        beam_lk = beam_lk.view(self.batch_size, -1)
        bestScores, bestScoresId = beam_lk.topk(self.beam_size, 1, True, True)
        self.scores = bestScores
        prev_k = bestScoresId / self.num_nodes  # root-cause
        self.prev_Ks.append(prev_k)
        new_nodes = bestScoresId - prev_k * self.num_nodes
        self.next_nodes.append(new_nodes.long())
        perm_mask = prev_k.unsqueeze(2).expand_as(self.mask)
        self.mask = self.mask.gather(1, perm_mask)  # fails-here
        self.mask.scatter_(2, new_nodes.long().unsqueeze(2), 0.0)


def beamsearch_tour(edge_probs, beam_size=4):
    b, n, _ = edge_probs.shape
    logp = torch.log(edge_probs + 1e-9)
    bs = Beamsearch(beam_size, b, n)
    for step in range(n - 1):
        current = bs.next_nodes[-1]
        trans = logp.gather(1, current.unsqueeze(2).expand(b, beam_size, n))
        bs.advance(trans)
    return torch.stack(bs.next_nodes, -1)


if __name__ == "__main__":
    torch.manual_seed(0)
    coords = torch.from_numpy(np.random.default_rng(0).random((2, 10, 2)).astype(np.float32))
    model = EdgeScorer().eval()
    with torch.no_grad():
        tours = beamsearch_tour(model(coords))
    print("tour of best beam:", tours[:, 0].tolist())
