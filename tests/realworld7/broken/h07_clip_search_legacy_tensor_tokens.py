"""Text-to-image search app: the query is tokenised with a toy BPE vocabulary and wrapped with the legacy torch.Tensor(...) constructor before the text encoder's token embedding
source: https://github.com/adesgautam/clip-search/issues/1
reported-error: RuntimeError: Expected tensor for argument #1 'indices' to have scalar type Long; but got torch.FloatTensor instead (while checking arguments for embedding)
outcome: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor instead (while checking arguments for embedding) at line 32
root-cause: line 19
expect: DG005
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB = {w: i + 3 for i, w in enumerate("a photo of dog cat red car on the beach street".split())}
SOT, EOT, CONTEXT = 1, 2, 12


def tokenize(text):
    ids = [SOT] + [VOCAB.get(w, 0) for w in text.lower().split()] + [EOT]
    ids = ids[:CONTEXT] + [0] * (CONTEXT - len(ids))
    return torch.Tensor([ids])  # root-cause


class TextEncoder(nn.Module):
    def __init__(self, vocab_size=32, width=32, embed_dim=16):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab_size, width)
        self.positional_embedding = nn.Parameter(torch.randn(CONTEXT, width) * 0.01)
        layer = nn.TransformerEncoderLayer(width, nhead=4, dim_feedforward=64, batch_first=True)
        self.transformer = nn.TransformerEncoder(layer, num_layers=1)
        self.text_projection = nn.Linear(width, embed_dim, bias=False)

    def encode_text(self, text):
        x = self.token_embedding(text) + self.positional_embedding  # fails-here
        x = self.transformer(x)
        return self.text_projection(x[torch.arange(x.shape[0]), text.argmax(dim=-1).long()])


class ImageIndex:
    def __init__(self, n_images=10, embed_dim=16):
        torch.manual_seed(0)
        self.features = F.normalize(torch.randn(n_images, embed_dim), dim=-1)

    def search(self, query_features, k=3):
        sims = self.features @ F.normalize(query_features, dim=-1).T
        return sims.squeeze(1).topk(k).indices.tolist()


model = TextEncoder().eval()
index = ImageIndex()
with torch.no_grad():
    text_features = model.encode_text(tokenize("a photo of a red car"))
print("top images:", index.search(text_features))
