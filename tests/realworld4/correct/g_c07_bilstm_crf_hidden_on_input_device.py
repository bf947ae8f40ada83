"""BERT-BiLSTM-CRF NER predictor whose init_hidden() creates h0/c0 on the device of the encoder output, whatever args.gpu_ids says
source: https://github.com/taishan1994/pytorch_triple_extraction/issues/8
reported-error: RuntimeError: Input and hidden tensors are not at the same device (in the broken version)
outcome: ok
root-cause: -
expect: none
"""
import argparse

import torch
import torch.nn as nn


class BertNerModel(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.args = args
        self.num_layers = args.num_layers
        self.lstm_hidden = args.lstm_hidden
        gpu_ids = args.gpu_ids.split(",")
        device = torch.device("cpu" if gpu_ids[0] == "-1" else "cuda:" + gpu_ids[0])
        self.device = device
        self.bert_module = nn.Embedding(args.vocab_size, args.hidden_size)  # stands in for the BERT encoder
        self.lstm = nn.LSTM(args.hidden_size, args.lstm_hidden, args.num_layers, bidirectional=True,
                            batch_first=True, dropout=args.dropout)
        self.linear = nn.Linear(args.lstm_hidden * 2, args.num_tags)

    def init_hidden(self, batch_size, device):
        h0 = torch.randn(2 * self.num_layers, batch_size, self.lstm_hidden, device=device)
        c0 = torch.randn(2 * self.num_layers, batch_size, self.lstm_hidden, device=device)
        return h0, c0

    def forward(self, token_ids, attention_masks, token_type_ids, labels):
        seq_out = self.bert_module(token_ids)
        batch_size = seq_out.size(0)
        hidden = self.init_hidden(batch_size, seq_out.device)
        seq_out, (hn, _) = self.lstm(seq_out, hidden)
        seq_out = self.linear(seq_out.contiguous().view(-1, self.lstm_hidden * 2))
        return seq_out.view(batch_size, self.args.max_seq_len, -1)


class BertForNer:
    def __init__(self, args, model, device):
        self.args, self.model, self.device = args, model, device

    def predict(self, token_ids):
        model = self.model.to(self.device)
        model.eval()
        with torch.no_grad():
            attention_masks = torch.ones_like(token_ids)
            logits = model(token_ids.to(self.device), attention_masks.to(self.device), None, None)
        return logits.argmax(-1).cpu().tolist()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--gpu_ids", type=str, default="-1", help="'-1' for cpu")
    parser.add_argument("--num_layers", type=int, default=1)
    parser.add_argument("--lstm_hidden", type=int, default=64)
    parser.add_argument("--hidden_size", type=int, default=48)
    parser.add_argument("--vocab_size", type=int, default=100)
    parser.add_argument("--num_tags", type=int, default=9)
    parser.add_argument("--max_seq_len", type=int, default=20)
    parser.add_argument("--dropout", type=float, default=0.0)
    args = parser.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = BertNerModel(args)
    bertForNer = BertForNer(args, model, device)
    raw_text = torch.randint(0, args.vocab_size, (1, args.max_seq_len))
    print(bertForNer.predict(raw_text))
