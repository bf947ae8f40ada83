"""BiLSTM-CRF NER model (information extraction tutorial): Viterbi decoding in BiLSTM_CRF.test allocates its score and backpointer tables with torch.zeros and no device, while crf_scores come from the GPU model
source: https://github.com/seanzhang-zhichen/PytorchBilstmCRF-Information-Extraction/issues/2
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (fix posted: move crf_scores/tables to device before B, L, T, _ = crf_scores.size())
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (the CPU viterbi table plus the CUDA crf_scores at the second Viterbi step; the step-0 slice assignment is a cross-device copy and works) at line 51; on CPU: ok
root-cause: line 42
expect: DG009
"""
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class BiLSTM(nn.Module):
    def __init__(self, vocab_size, emb_size, hidden_size, out_size):
        super(BiLSTM, self).__init__()
        self.embedding = nn.Embedding(vocab_size, emb_size)
        self.bilstm = nn.LSTM(emb_size, hidden_size, batch_first=True, bidirectional=True)
        self.lin = nn.Linear(2 * hidden_size, out_size)

    def forward(self, sents_tensor, lengths):
        emb = self.embedding(sents_tensor)
        rnn_out, _ = self.bilstm(emb)
        return self.lin(rnn_out)


class BiLSTM_CRF(nn.Module):
    def __init__(self, vocab_size, emb_size, hidden_size, out_size):
        super(BiLSTM_CRF, self).__init__()
        self.bilstm = BiLSTM(vocab_size, emb_size, hidden_size, out_size)
        self.transition = nn.Parameter(torch.ones(out_size, out_size) * 1 / out_size)

    def forward(self, sents_tensor, lengths):
        emission = self.bilstm(sents_tensor, lengths)
        batch_size, max_len, out_size = emission.size()
        return emission.unsqueeze(2).expand(-1, -1, out_size, -1) + self.transition.unsqueeze(0)

    def test(self, test_sents_tensor, lengths, tag2id):
        start_id, end_id = tag2id["<start>"], tag2id["<end>"]
        crf_scores = self.forward(test_sents_tensor, lengths)
        B, L, T, _ = crf_scores.size()
        viterbi = torch.zeros(B, L, T)  # root-cause
        backpointer = (torch.zeros(B, L, T).long() * end_id)
        lengths = torch.LongTensor(lengths)
        for step in range(L):
            batch_size_t = (lengths > step).sum().item()
            if step == 0:
                viterbi[:batch_size_t, step, :] = crf_scores[:batch_size_t, step, start_id, :]
                backpointer[:batch_size_t, step, :] = start_id
            else:
                max_scores, prev_tags = torch.max(viterbi[:batch_size_t, step - 1, :].unsqueeze(2) + crf_scores[:batch_size_t, step, :, :], dim=1)  # fails-here
                viterbi[:batch_size_t, step, :] = max_scores
                backpointer[:batch_size_t, step, :] = prev_tags
        return viterbi[:, -1].argmax(-1), backpointer


def cal_lstm_crf_loss(crf_scores, targets, tag2id):
    pad_id = tag2id.get("<pad>")
    mask = targets != pad_id
    golden = crf_scores.gather(3, targets[:, :, None, None].expand(-1, -1, crf_scores.size(2), 1)).squeeze(-1).max(-1)[0]
    return -(golden * mask).sum() / mask.sum() + torch.logsumexp(crf_scores, dim=(2, 3)).mean()


if __name__ == "__main__":
    tag2id = {"O": 0, "B-PER": 1, "I-PER": 2, "<pad>": 3, "<start>": 4, "<end>": 5}
    model = BiLSTM_CRF(vocab_size=100, emb_size=16, hidden_size=16, out_size=len(tag2id)).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    sents = torch.randint(0, 100, (4, 7)).to(device)
    targets = torch.randint(0, 3, (4, 7)).to(device)
    lengths = [7, 6, 5, 3]
    for epoch in range(2):
        scores = model(sents, lengths)
        loss = cal_lstm_crf_loss(scores, targets, tag2id)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"Epoch {epoch}, Loss: {loss.item():.4f}")
    model.eval()
    with torch.no_grad():
        best, _ = model.test(sents, lengths, tag2id)
    print("decoded", best.tolist())
