"""EvoDiff-style sequence generation: set_default_device('cuda:0') added after the model was built (the workaround from the thread, placed too late)
source: https://github.com/microsoft/evodiff/issues/9
reported-error: an error saying cpu and cuda devices are in use (paraphrased by the reporter; no traceback posted)
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0! (embedding lookup of the cuda:0 sample against the CPU model) at line 38; on CPU: ok
root-cause: line 77 (alt 73)
expect: DG001
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ALPHABET = "ACDEFGHIKLMNPQRSTVWYBZXJOU-*#@!"
MASK = "#"


class Tokenizer:
    def __init__(self, alphabet=ALPHABET):
        self.alphabet = alphabet
        self.a_to_i = {a: i for i, a in enumerate(alphabet)}
        self.mask_id = self.a_to_i[MASK]

    def untokenize(self, ids):
        return "".join(self.alphabet[i] for i in ids.tolist())


class ByteNetLM(nn.Module):
    def __init__(self, n_tokens, d_embedding=8, d_model=32, n_layers=2, kernel_size=5):
        super().__init__()
        self.embedder = nn.Embedding(n_tokens, d_embedding)
        self.up = nn.Linear(d_embedding, d_model)
        self.layers = nn.ModuleList([nn.Conv1d(d_model, d_model, kernel_size, padding=kernel_size // 2)
                                     for _ in range(n_layers)])
        self.decoder = nn.Linear(d_model, n_tokens)

    def forward(self, x, input_mask=None):
        e = self.up(self.embedder(x)).transpose(1, 2)  # fails-here
        for layer in self.layers:
            e = e + F.gelu(layer(e))
        return self.decoder(e.transpose(1, 2))


def OA_DM_38M():
    tokenizer = Tokenizer()
    model = ByteNetLM(len(tokenizer.alphabet))
    return model, None, tokenizer, "OA_DM"


def generate_oaardm(model, tokenizer, seq_len, batch_size=3, device="cuda"):
    mask = tokenizer.mask_id
    all_aas = torch.arange(20)
    sample = torch.zeros((batch_size, seq_len), dtype=torch.long) + mask
    loc = torch.randperm(seq_len)
    with torch.no_grad():
        for i in loc:
            timestep = torch.tensor([0] * batch_size)
            prediction = model(sample, timestep)
            p = prediction[:, i, : len(all_aas)]
            p = torch.nn.functional.softmax(p, dim=1)
            p_sample = torch.multinomial(p, num_samples=1)
            sample[:, i] = p_sample.squeeze()
    untokenized = [tokenizer.untokenize(s) for s in sample]
    return sample, untokenized


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seq-len", type=int, default=12)
    parser.add_argument("--device", type=str, default="cuda:0" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args([])

    checkpoint = OA_DM_38M()  # root-cause-alt
    model, collater, tokenizer, scheme = checkpoint
    model.eval()

    torch.set_default_device(args.device)  # root-cause
    sample, untokenized = generate_oaardm(model, tokenizer, args.seq_len, batch_size=3, device=args.device)
    print(untokenized)


if __name__ == "__main__":
    main()
