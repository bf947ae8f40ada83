"""Image-captioning sample.py: encoder/decoder weights trained and saved on a GPU box are restored with torch.load(path) and no map_location on a CPU-only machine
source: https://github.com/yunjey/pytorch-tutorial/issues/249
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 63
root-cause: line 63
expect: DG010
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn

device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')


class EncoderCNN(nn.Module):
    def __init__(self, embed_size):
        super().__init__()
        self.cnn = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.linear = nn.Linear(16, embed_size)
        self.bn = nn.BatchNorm1d(embed_size, momentum=0.01)

    def forward(self, images):
        return self.bn(self.linear(self.cnn(images).flatten(1)))


class DecoderRNN(nn.Module):
    def __init__(self, embed_size, hidden_size, vocab_size, num_layers, max_seq_length=12):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, embed_size)
        self.lstm = nn.LSTM(embed_size, hidden_size, num_layers, batch_first=True)
        self.linear = nn.Linear(hidden_size, vocab_size)
        self.max_seg_length = max_seq_length

    def sample(self, features, states=None):
        sampled_ids = []
        inputs = features.unsqueeze(1)
        for i in range(self.max_seg_length):
            hiddens, states = self.lstm(inputs, states)
            predicted = self.linear(hiddens.squeeze(1)).argmax(1)
            sampled_ids.append(predicted)
            inputs = self.embed(predicted).unsqueeze(1)
        return torch.stack(sampled_ids, 1)


def save_checkpoints_from_gpu_box(model_path, embed_size, hidden_size, vocab_size, num_layers):
    """What train.py left behind on the author's GPU machine (storages tagged cuda:0, as torch.save writes CUDA tensors)."""
    torch.serialization.register_package(0, lambda s: 'cuda:0' if s.device.type == 'cpu' else None, lambda obj, loc: None)
    torch.save(EncoderCNN(embed_size).state_dict(), os.path.join(model_path, 'encoder-5-3000.ckpt'))
    torch.save(DecoderRNN(embed_size, hidden_size, vocab_size, num_layers).state_dict(),
               os.path.join(model_path, 'decoder-5-3000.ckpt'))


def main(args):
    encoder = EncoderCNN(args.embed_size).eval()
    decoder = DecoderRNN(args.embed_size, args.hidden_size, args.vocab_size, args.num_layers)
    encoder = encoder.to(device)
    decoder = decoder.to(device)

    # Load the trained model parameters
    encoder.load_state_dict(torch.load(args.encoder_path))  # root-cause  # fails-here
    decoder.load_state_dict(torch.load(args.decoder_path))

    image_tensor = torch.rand(1, 3, 64, 64, device=device)
    feature = encoder(image_tensor)
    sampled_ids = decoder.sample(feature)[0].cpu().numpy()
    print(' '.join('<w%d>' % i for i in sampled_ids))


if __name__ == '__main__':
    model_path = tempfile.mkdtemp()
    parser = argparse.ArgumentParser()
    parser.add_argument('--encoder_path', type=str, default=os.path.join(model_path, 'encoder-5-3000.ckpt'))
    parser.add_argument('--decoder_path', type=str, default=os.path.join(model_path, 'decoder-5-3000.ckpt'))
    parser.add_argument('--embed_size', type=int, default=32)
    parser.add_argument('--hidden_size', type=int, default=64)
    parser.add_argument('--vocab_size', type=int, default=50)
    parser.add_argument('--num_layers', type=int, default=1)
    args = parser.parse_args()
    save_checkpoints_from_gpu_box(model_path, args.embed_size, args.hidden_size, args.vocab_size, args.num_layers)
    main(args)
