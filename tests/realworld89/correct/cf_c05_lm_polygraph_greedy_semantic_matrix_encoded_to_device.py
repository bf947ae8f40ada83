"""The LM-Polygraph greedy semantic-matrix run of cf05 as PR #380 fixes it: both batch_encode_plus(..., return_tensors="pt") results are moved with .to(deberta.device) before the NLI DeBERTa is called, so the pair encodings sit where the model is and the entailment matrix and the uncertainty estimates are computed (the accelerator stand-in falls back to the CPU here, so the run can print its numbers)
source: https://github.com/IINemo/lm-polygraph/pull/380
reported-error: (none; the fixed situation of cf05)
outcome: ok
root-cause: -
expect: none
"""
import itertools
import re
from typing import Dict, List

import numpy as np
import torch
import torch.nn as nn
from transformers import BatchEncoding, DebertaConfig, DebertaForSequenceClassification

torch.manual_seed(0)

# the library's default device: cuda:0 where a CUDA device is present, else the CPU
ACCELERATOR = "cuda:0" if torch.cuda.is_available() else "cpu"


# ---- stand-ins for DebertaTokenizer / from_pretrained("microsoft/deberta-large-mnli") -----------------------------
class PairTokenizer:
    """A word-level tokenizer with the batch_encode_plus interface of the Hugging Face tokenizers."""

    def __init__(self, vocab_size=128):
        self.vocab_size = vocab_size
        self.cls_token_id, self.sep_token_id, self.pad_token_id = 1, 2, 0

    def _ids(self, text):
        return [3 + sum(map(ord, w)) % (self.vocab_size - 3) for w in re.findall(r"\w+", text.lower())]

    def batch_encode_plus(self, batch, padding=True, return_tensors="pt"):
        rows = []
        for first, second in batch:
            a, b = self._ids(first), self._ids(second)
            ids = [self.cls_token_id] + a + [self.sep_token_id] + b + [self.sep_token_id]
            types = [0] * (len(a) + 2) + [1] * (len(b) + 1)
            rows.append((ids, types))
        width = max(len(ids) for ids, _ in rows)
        return BatchEncoding({
            "input_ids": [ids + [self.pad_token_id] * (width - len(ids)) for ids, _ in rows],
            "token_type_ids": [types + [0] * (width - len(types)) for _, types in rows],
            "attention_mask": [[1] * len(ids) + [0] * (width - len(ids)) for ids, _ in rows],
        }, tensor_type=return_tensors)


def load_mnli_deberta(path):
    config = DebertaConfig(vocab_size=128, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                           intermediate_size=64, max_position_embeddings=128, type_vocab_size=2, num_labels=3,
                           id2label={0: "CONTRADICTION", 1: "NEUTRAL", 2: "ENTAILMENT"},
                           label2id={"CONTRADICTION": 0, "NEUTRAL": 1, "ENTAILMENT": 2},
                           problem_type="multi_label_classification")
    return DebertaForSequenceClassification(config)


# ---- lm_polygraph/utils/deberta.py --------------------------------------------------------------------------------
class Deberta:
    """A singleton DeBERTa NLI model shared by the uncertainty methods."""

    def __init__(self, deberta_path="microsoft/deberta-large-mnli", batch_size=10, device=None, hf_cache=None):
        self.deberta_path = deberta_path
        self.batch_size = batch_size
        self._deberta = None
        self._deberta_tokenizer = None
        if device is None:
            self.device = ACCELERATOR
        else:
            self.device = device
        self.hf_cache = hf_cache
        self.setup()

    @property
    def deberta(self):
        if self._deberta is None:
            self.setup()
        return self._deberta

    @property
    def deberta_tokenizer(self):
        if self._deberta_tokenizer is None:
            self.setup()
        return self._deberta_tokenizer

    def setup(self):
        if self._deberta is not None:
            return
        self._deberta = load_mnli_deberta(self.deberta_path)
        self._deberta_tokenizer = PairTokenizer()
        self._deberta.to(self.device)
        self._deberta.eval()


# ---- lm_polygraph/stat_calculators/greedy_semantic_matrix.py -------------------------------------------------------
class BaseGreedySemanticMatrixCalculator:
    def __init__(self, nli_model):
        self.is_deberta_setup = False
        self.nli_model = nli_model

    def calculate_semantic_matrix(self, batch_pairs, batch_invs):
        deberta = self.nli_model
        deberta_batch_size = deberta.batch_size

        ent_id = deberta.deberta.config.label2id["ENTAILMENT"]
        contra_id = deberta.deberta.config.label2id["CONTRADICTION"]
        neutral_id = deberta.deberta.config.label2id["NEUTRAL"]

        softmax = nn.Softmax(dim=1)
        tokenizer = deberta.deberta_tokenizer

        E_tensors, N_tensors, C_tensors = [], [], []
        with torch.no_grad():
            for i, pairs in enumerate(batch_pairs):
                dl = torch.utils.data.DataLoader(pairs, batch_size=deberta_batch_size)
                probs_f = []
                probs_b = []
                for first_texts, second_texts in dl:
                    batch = list(zip(first_texts, second_texts))
                    encoded = tokenizer.batch_encode_plus(batch, padding=True, return_tensors="pt").to(deberta.device)
                    logits = deberta.deberta(**encoded).logits
                    probs_f.append(softmax(logits))

                    batch = list(zip(second_texts, first_texts))
                    encoded = tokenizer.batch_encode_plus(batch, padding=True, return_tensors="pt").to(deberta.device)
                    logits = deberta.deberta(**encoded).logits
                    probs_b.append(softmax(logits))

                probs_f = torch.cat(probs_f, dim=0)
                probs_b = torch.cat(probs_b, dim=0)
                inv = batch_invs[i]
                E_tensors.append((probs_f[:, ent_id][inv] + probs_b[:, ent_id][inv]) / 2)
                N_tensors.append((probs_f[:, neutral_id][inv] + probs_b[:, neutral_id][inv]) / 2)
                C_tensors.append((probs_f[:, contra_id][inv] + probs_b[:, contra_id][inv]) / 2)

            E = torch.stack(E_tensors).cpu().numpy()
            N = torch.stack(N_tensors).cpu().numpy()
            C = torch.stack(C_tensors).cpu().numpy()
        return E, N, C


class GreedySemanticMatrixCalculator(BaseGreedySemanticMatrixCalculator):
    def __call__(self, dependencies: Dict[str, np.array], texts: List[str], model=None, max_new_tokens=100):
        batch_texts = dependencies["sample_texts"]
        batch_greedy_texts = dependencies["greedy_texts"]
        batch_pairs = []
        batch_invs = []
        for texts, greedy_text in zip(batch_texts, batch_greedy_texts):
            # score pairs of unique sampled outputs only
            unique_texts, inv = np.unique(texts, return_inverse=True)
            batch_pairs.append(list(itertools.product([greedy_text], unique_texts)))
            batch_invs.append(inv)
        E, N, C = self.calculate_semantic_matrix(batch_pairs, batch_invs)
        return {"greedy_semantic_matrix_entail": E, "greedy_semantic_matrix_neutral": N,
                "greedy_semantic_matrix_contra": C}


# ---- an estimator on top of it (the share of samples the greedy answer does not entail) ---------------------------
def greedy_sum_entailment_uncertainty(stats):
    return 1.0 - stats["greedy_semantic_matrix_entail"].mean(axis=-1)


questions = ["Who wrote Hamlet?", "What is the boiling point of water at sea level?"]
dependencies = {
    "greedy_texts": ["William Shakespeare wrote Hamlet.", "Water boils at 100 degrees Celsius."],
    "sample_texts": [
        ["Shakespeare wrote it.", "William Shakespeare.", "Shakespeare wrote it.", "Christopher Marlowe.",
         "It was Shakespeare."],
        ["100 degrees Celsius.", "212 degrees Fahrenheit.", "100 degrees Celsius.", "About 90 degrees.",
         "It boils at 100 C."],
    ],
}
nli_model = Deberta(batch_size=4)
calculator = GreedySemanticMatrixCalculator(nli_model)
stats = calculator(dependencies, questions)
for q, u in zip(questions, greedy_sum_entailment_uncertainty(stats)):
    print(f"{q:50s} uncertainty {u:.3f}  (entail matrix {stats['greedy_semantic_matrix_entail'].shape})")
