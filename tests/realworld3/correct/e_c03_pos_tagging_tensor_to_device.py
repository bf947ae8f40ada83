"""pytorch-pos-tagging: the embedding replacement tensor is moved to the model's device (fixed version)
source: https://github.com/bentrevett/pytorch-pos-tagging/pull/5
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!
outcome: ok
root-cause: none
expect: none
"""
import torch
import torch.nn as nn

device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
INPUT_DIM, EMBEDDING_DIM, HIDDEN_DIM, OUTPUT_DIM, PAD_IDX = 50, 16, 32, 6, 1


class BiLSTMPOSTagger(nn.Module):
    def __init__(self, input_dim, embedding_dim, hidden_dim, output_dim, pad_idx):
        super().__init__()
        self.embedding = nn.Embedding(input_dim, embedding_dim, padding_idx=pad_idx)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim, bidirectional=True)
        self.fc = nn.Linear(hidden_dim * 2, output_dim)

    def forward(self, text):
        outputs, (hidden, cell) = self.lstm(self.embedding(text))
        return self.fc(outputs)


model = BiLSTMPOSTagger(INPUT_DIM, EMBEDDING_DIM, HIDDEN_DIM, OUTPUT_DIM, PAD_IDX).to(device)
pretrained_embeddings = torch.randn(INPUT_DIM, EMBEDDING_DIM)
model.embedding.weight.data.copy_(pretrained_embeddings)
model.embedding.weight.data[PAD_IDX] = torch.zeros(EMBEDDING_DIM).to(device)
optimizer = torch.optim.Adam(model.parameters())
criterion = nn.CrossEntropyLoss(ignore_index=0).to(device)
for epoch in range(2):
    text = torch.randint(0, INPUT_DIM, (10, 4), device=device)
    tags = torch.randint(0, OUTPUT_DIM, (10, 4), device=device)
    predictions = model(text).view(-1, OUTPUT_DIM)
    loss = criterion(predictions, tags.view(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(epoch, loss.item())
