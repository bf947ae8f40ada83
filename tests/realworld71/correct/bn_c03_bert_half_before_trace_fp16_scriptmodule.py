"""The traced BERT-style classifier of bn03 (huggingface/transformers #1344) exported for fp16 serving the way that works: the model is cast with .half() before torch.jit.trace, so the frozen `extended_attention_mask.to(dtype=next(self.parameters()).dtype)` cast is float16, and the serving process loads the TorchScript file and runs it with no further cast; its predictions match the float32 model's
source: https://github.com/huggingface/transformers/issues/1344
reported-error: (none; the fixed situation of bn03)
outcome: ok
root-cause: -
expect: none
"""
import math
import os
import tempfile

import torch
import torch.nn as nn

torch.manual_seed(0)
RUN_DIR = tempfile.mkdtemp(prefix="traced_bert_")


class BertConfig:
    vocab_size, hidden_size, num_hidden_layers, num_attention_heads = 120, 32, 2, 4
    intermediate_size, max_position_embeddings, type_vocab_size, num_labels = 64, 64, 2, 3
    layer_norm_eps, torchscript = 1e-12, True


class BertEmbeddings(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.word_embeddings = nn.Embedding(config.vocab_size, config.hidden_size, padding_idx=0)
        self.position_embeddings = nn.Embedding(config.max_position_embeddings, config.hidden_size)
        self.token_type_embeddings = nn.Embedding(config.type_vocab_size, config.hidden_size)
        self.LayerNorm = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)

    def forward(self, input_ids, token_type_ids):
        position_ids = torch.arange(input_ids.size(1), dtype=torch.long, device=input_ids.device)
        position_ids = position_ids.unsqueeze(0).expand_as(input_ids)
        emb = self.word_embeddings(input_ids) + self.position_embeddings(position_ids) + self.token_type_embeddings(token_type_ids)
        return self.LayerNorm(emb)


class BertSelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.num_attention_heads = config.num_attention_heads
        self.attention_head_size = config.hidden_size // config.num_attention_heads
        self.query = nn.Linear(config.hidden_size, config.hidden_size)
        self.key = nn.Linear(config.hidden_size, config.hidden_size)
        self.value = nn.Linear(config.hidden_size, config.hidden_size)

    def transpose_for_scores(self, x):
        return x.view(x.size()[:-1] + (self.num_attention_heads, self.attention_head_size)).permute(0, 2, 1, 3)

    def forward(self, hidden_states, attention_mask):
        q = self.transpose_for_scores(self.query(hidden_states))
        k = self.transpose_for_scores(self.key(hidden_states))
        v = self.transpose_for_scores(self.value(hidden_states))
        attention_scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.attention_head_size)
        attention_scores = attention_scores + attention_mask
        attention_probs = nn.Softmax(dim=-1)(attention_scores)
        context_layer = torch.matmul(attention_probs, v)
        context_layer = context_layer.permute(0, 2, 1, 3).contiguous()
        return context_layer.view(context_layer.size()[:-2] + (-1,))


class BertLayer(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.attention = BertSelfAttention(config)
        self.attn_out = nn.Linear(config.hidden_size, config.hidden_size)
        self.ln1 = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)
        self.intermediate = nn.Linear(config.hidden_size, config.intermediate_size)
        self.output = nn.Linear(config.intermediate_size, config.hidden_size)
        self.ln2 = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)

    def forward(self, hidden_states, attention_mask):
        h = self.ln1(hidden_states + self.attn_out(self.attention(hidden_states, attention_mask)))
        return self.ln2(h + self.output(nn.functional.gelu(self.intermediate(h))))


class BertForSequenceClassification(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.embeddings = BertEmbeddings(config)
        self.layer = nn.ModuleList([BertLayer(config) for _ in range(config.num_hidden_layers)])
        self.pooler = nn.Linear(config.hidden_size, config.hidden_size)
        self.classifier = nn.Linear(config.hidden_size, config.num_labels)

    def forward(self, input_ids, attention_mask=None, token_type_ids=None):
        if attention_mask is None:
            attention_mask = torch.ones_like(input_ids)
        if token_type_ids is None:
            token_type_ids = torch.zeros_like(input_ids)
        extended_attention_mask = attention_mask.unsqueeze(1).unsqueeze(2)
        extended_attention_mask = extended_attention_mask.to(dtype=next(self.parameters()).dtype)  # fp16 compatibility
        extended_attention_mask = (1.0 - extended_attention_mask) * -10000.0
        hidden = self.embeddings(input_ids, token_type_ids)
        for layer in self.layer:
            hidden = layer(hidden, extended_attention_mask)
        pooled = torch.tanh(self.pooler(hidden[:, 0]))
        return (self.classifier(pooled),)  # torchscript=True: tuples, not dicts


def tokenize(texts, vocab, max_len=16):
    ids = [[1] + [vocab.setdefault(w, 2 + len(vocab) % 110) for w in t.lower().split()][: max_len - 1] for t in texts]
    return torch.tensor([row + [0] * (max_len - len(row)) for row in ids])


vocab = {}
texts = ["the battery died after two days", "great screen and fast shipping", "it works as described",
         "screen cracked on arrival", "love it would buy again", "average product nothing special"]
r_input_ids = tokenize(texts, vocab)

# --- export: trace the classifier for fp16 serving (cast first, then trace) ---
model = BertForSequenceClassification(BertConfig())
model.eval()
with torch.no_grad():
    reference = model(r_input_ids)[0].argmax(-1)
    model.half()
    traced_model = torch.jit.trace(model, (r_input_ids,))
torch.jit.save(traced_model, os.path.join(RUN_DIR, "traced_bert_fp16.pt"))

# --- serving: load the TorchScript file and run it in fp16 ---
loaded_model = torch.jit.load(os.path.join(RUN_DIR, "traced_bert_fp16.pt"), map_location="cpu")
loaded_model.eval()
with torch.no_grad():
    logits = loaded_model(r_input_ids)[0]
preds = logits.float().argmax(-1)
print("fp16 predictions:", preds.tolist(), "float32 reference:", reference.tolist())
