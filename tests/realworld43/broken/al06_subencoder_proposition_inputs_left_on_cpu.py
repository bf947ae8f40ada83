"""Proposition embeddings with the sub-sentence encoder (schen149/sub-sentence-encoder: model/pl_subencoder.py's LitSubEncoder over a Hugging Face encoder, model/layers.py's Pooling and MLPLayer, utils/data_utils.py's convert_propositions_to_features and PropPairModelInput, the README's three-step usage), sub-sentence-encoder issue #1: step 3 of the README moves the model to CUDA but passes the PropPairModelInput built on the CPU (input_ids, attention masks, proposition masks) straight to the model, so the encoder's embedding lookup gets CPU indices and CUDA weights
source: https://github.com/schen149/sub-sentence-encoder/issues/1
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument index in method wrapper_CUDA__index_select) (the maintainer's answer: sent1_inputs.to("cuda") with PropPairModelInput.to)
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument index in method wrapper_CUDA__index_select) (not run on a GPU for this set) at line 48; on CPU: ok
root-cause: line 135
expect: DG009
"""
import re

import numpy as np

import torch
import torch.nn as nn
from transformers import BatchEncoding, BertConfig, BertModel


# ---- model/layers.py
class Pooling(nn.Module):
    def forward(self, token_embeddings, attention_mask):
        mask = attention_mask.unsqueeze(-1).expand(token_embeddings.size()).float()
        return torch.sum(token_embeddings * mask, 1) / torch.clamp(mask.sum(1), min=1e-9)


class MLPLayer(nn.Module):
    def __init__(self, input_dim, hidden_dim, output_dim):
        super().__init__()
        self.dense = nn.Linear(input_dim, hidden_dim)
        self.activation = nn.Tanh()
        self.out = nn.Linear(hidden_dim, output_dim)

    def forward(self, features):
        return self.out(self.activation(self.dense(features)))


# ---- model/pl_subencoder.py (reduced: a plain nn.Module; the backbone is a small randomly initialised BERT
# instead of from_pretrained(params.model_name))
class LitSubEncoder(nn.Module):
    def __init__(self, params):
        super().__init__()
        self.params = params
        self.encoder = BertModel(BertConfig(vocab_size=params["vocab_size"], hidden_size=32, num_hidden_layers=1,
                                            num_attention_heads=2, intermediate_size=64))
        self.encoder_hidden_dim = self.encoder.config.hidden_size
        self.pooler = Pooling()
        self.mlp = MLPLayer(self.encoder_hidden_dim, self.encoder_hidden_dim, params["final_output_dim"])

    def forward(self, encoder_inputs, num_prop_per_sentence, all_prop_mask, pool_all_tokens=False):
        outputs = self.encoder(**encoder_inputs)  # fails-here
        encoded = outputs["last_hidden_state"]
        encoded_repeat = encoded.repeat_interleave(num_prop_per_sentence, dim=0)
        prop_pooled = self.pooler(token_embeddings=encoded_repeat, attention_mask=all_prop_mask)
        return self.mlp(prop_pooled)


def load_subencoder_model(params, device):
    model = LitSubEncoder(params)
    model.eval()
    return model.to(device)


# ---- utils/label_utils.py and utils/data_utils.py (reduced)
def offset_to_token_masks(proposition_spans, token_spans):
    mask = []
    for tok_start, tok_end in token_spans:
        inside = any(tok_start >= s and tok_end <= e and tok_end > tok_start for s, e in proposition_spans)
        mask.append(1 if inside else 0)
    return mask


class PropPairModelInput:
    def __init__(self, encoder_inputs, num_prop_per_sentence, all_prop_mask, prop_labels=None):
        self.encoder_inputs = encoder_inputs
        self.num_prop_per_sentence = num_prop_per_sentence
        self.all_prop_mask = all_prop_mask
        self.prop_labels = prop_labels

    def to(self, device):
        self.encoder_inputs = self.encoder_inputs.to(device)
        self.num_prop_per_sentence = self.num_prop_per_sentence.to(device)
        self.all_prop_mask = self.all_prop_mask.to(device)
        if self.prop_labels is not None:
            self.prop_labels = self.prop_labels.to(device)
        return self


class WhitespaceTokenizer:
    """stands in for AutoTokenizer.from_pretrained(...): word pieces are whole words here"""

    def __init__(self, vocab):
        self.vocab = vocab

    def __call__(self, texts, return_offsets_mapping=True, padding='max_length', truncation=True, max_length=16):
        ids, masks, offsets = [], [], []
        for text in texts:
            words = [(m.group(0), m.start(), m.end()) for m in re.finditer(r"\w+|[^\w\s]", text)][:max_length - 2]
            tok = [101] + [self.vocab.setdefault(w.lower(), len(self.vocab) + 1000) % 900 + 103 for w, _, _ in words] + [102]
            off = [(0, 0)] + [(s, e) for _, s, e in words] + [(0, 0)]
            pad = max_length - len(tok)
            ids.append(tok + [0] * pad)
            masks.append([1] * len(tok) + [0] * pad)
            offsets.append(off + [(0, 0)] * pad)
        return BatchEncoding({"input_ids": ids, "attention_mask": masks, "offset_mapping": offsets})


def convert_propositions_to_features(batch_props, tokenizer, max_seq_len):
    all_text_batch = [ex["sentence_text"] for ex in batch_props]
    all_spans_batch = [ex["spans"] for ex in batch_props]
    all_toks_batch = tokenizer(all_text_batch, return_offsets_mapping=True, padding='max_length', truncation=True,
                               max_length=max_seq_len)
    all_offset_mapping_batch = all_toks_batch["offset_mapping"]
    all_prop_mask = []
    num_prop_per_sentence = [1] * len(all_text_batch)
    for sent_prop_spans, toks in zip(all_spans_batch, all_offset_mapping_batch):
        all_prop_mask.append(offset_to_token_masks(proposition_spans=sent_prop_spans, token_spans=toks))
    del all_toks_batch["offset_mapping"]
    encoder_input_batch = all_toks_batch.convert_to_tensors(tensor_type='pt')
    num_prop_per_sentence = torch.tensor(num_prop_per_sentence, dtype=torch.int32)
    all_prop_mask = torch.tensor(all_prop_mask, dtype=torch.float)
    return PropPairModelInput(encoder_input_batch, num_prop_per_sentence, all_prop_mask, None)


# ---- the reporter's notebook: README steps 1-3
def main():
    torch.manual_seed(0)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    params = {"vocab_size": 1024, "final_output_dim": 16}
    # step 1: load the model
    model = load_subencoder_model(params, device)
    tokenizer = WhitespaceTokenizer({})
    # step 2: the propositions as character spans of their sentences
    sent1 = "Dracula is a novel by Bram Stoker, published in 1897."
    sent2 = "Bram Stoker wrote Dracula, which appeared in 1897."
    sent1_props = [{"sentence_text": sent1, "spans": [[0, 33]]}, {"sentence_text": sent1, "spans": [[0, 10], [35, 52]]}]
    sent2_props = [{"sentence_text": sent2, "spans": [[0, 24]]}, {"sentence_text": sent2, "spans": [[18, 49]]}]
    sent1_inputs = convert_propositions_to_features(sent1_props, tokenizer, max_seq_len=16)  # root-cause
    sent2_inputs = convert_propositions_to_features(sent2_props, tokenizer, max_seq_len=16)
    # step 3: encode and compare
    with torch.no_grad():
        sent1_embeddings = model(encoder_inputs=sent1_inputs.encoder_inputs,
                                 num_prop_per_sentence=sent1_inputs.num_prop_per_sentence,
                                 all_prop_mask=sent1_inputs.all_prop_mask)
        sent2_embeddings = model(encoder_inputs=sent2_inputs.encoder_inputs,
                                 num_prop_per_sentence=sent2_inputs.num_prop_per_sentence,
                                 all_prop_mask=sent2_inputs.all_prop_mask)
    sims = torch.nn.functional.cosine_similarity(sent1_embeddings.unsqueeze(1), sent2_embeddings.unsqueeze(0), dim=-1)
    print("proposition similarities:", np.round(sims.cpu().numpy(), 3).tolist())


if __name__ == "__main__":
    main()
