"""Show-attend-tell caption.py on a laptop: the training checkpoint pickles the whole encoder and decoder (saved from a GPU run), and the inference script loads it with torch.load(args.model, weights_only=False) and no map_location
source: https://github.com/sgrvinod/a-PyTorch-Tutorial-to-Image-Captioning/pull/93
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 65
root-cause: line 65
expect: DG010
"""
import argparse
import os
import tempfile
from unittest import mock

import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Encoder(nn.Module):
    def __init__(self, encoded_image_size=4, dim=16):
        super().__init__()
        self.cnn = nn.Sequential(nn.Conv2d(3, dim, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(encoded_image_size))

    def forward(self, images):
        return self.cnn(images).flatten(2).transpose(1, 2)


class DecoderWithAttention(nn.Module):
    def __init__(self, vocab_size=20, dim=16):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, dim)
        self.attention = nn.Linear(dim, 1)
        self.decode_step = nn.LSTMCell(2 * dim, dim)
        self.fc = nn.Linear(dim, vocab_size)


def save_checkpoint(path, encoder, decoder):
    state = {"epoch": 20, "bleu-4": 0.23, "encoder": encoder, "decoder": decoder}
    with mock.patch.object(torch.serialization, "location_tag", lambda storage: "cuda:0"):
        torch.save(state, path)


def caption_image_beam_search(encoder, decoder, image, word_map, max_len=6):
    encoder_out = encoder(image.unsqueeze(0).to(device))
    h = c = torch.zeros(1, decoder.fc.in_features, device=device)
    prev = torch.tensor([word_map["<start>"]], device=device)
    seq = []
    for _ in range(max_len):
        alpha = F.softmax(decoder.attention(encoder_out).squeeze(-1), dim=1)
        context = (encoder_out * alpha.unsqueeze(-1)).sum(1)
        h, c = decoder.decode_step(torch.cat([decoder.embedding(prev), context], dim=1), (h, c))
        prev = decoder.fc(h).argmax(-1)
        seq.append(int(prev))
    return seq


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Show, Attend, and Tell - Tutorial - Generate Caption")
    parser.add_argument("--model", "-m", default=os.path.join(tempfile.mkdtemp(), "BEST_checkpoint_coco_5_cap_per_img.pth.tar"))
    parser.add_argument("--beam_size", "-b", default=3, type=int)
    args = parser.parse_args()
    save_checkpoint(args.model, Encoder(), DecoderWithAttention())

    checkpoint = torch.load(args.model, weights_only=False)  # root-cause # fails-here
    decoder = checkpoint["decoder"].to(device).eval()
    encoder = checkpoint["encoder"].to(device).eval()
    word_map = {"<start>": 1, "<end>": 2}
    with torch.no_grad():
        print("caption ids:", caption_image_beam_search(encoder, decoder, torch.rand(3, 32, 32), word_map))
