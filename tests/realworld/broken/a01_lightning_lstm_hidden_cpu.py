"""Char-level LSTM: hidden and cell created with torch.zeros on the CPU while the model runs on CUDA
source: https://github.com/Lightning-AI/pytorch-lightning/issues/3738
reported-error: RuntimeError: Input and hidden tensors are not at the same device, found input tensor at cuda:0 and hidden tensor at cpu
outcome: cuda-only: RuntimeError: Input and hidden tensors are not at the same device, found input tensor at cuda:0 and hidden tensor at cpu at line 39; on CPU: ok
root-cause: line 49
expect: DG009
"""
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class RNN(nn.Module):
    lr = 0.0005

    def __init__(self, input_size, hidden_size, embeding_size, n_categories, n_layers, output_size, p):
        super().__init__()

        self.criterion = nn.CrossEntropyLoss()

        self.n_layers = n_layers
        self.hidden_size = hidden_size

        self.embeding = nn.Embedding(input_size + n_categories, embeding_size)
        self.lstm = nn.LSTM(embeding_size + n_categories, hidden_size, n_layers, dropout=p)
        self.out_fc = nn.Linear(hidden_size, output_size)

        self.dropout = nn.Dropout(p)

    def forward(self, batch_of_category, batch_of_letter, hidden, cell):
        ## letter level operations
        embeding = self.dropout(self.embeding(batch_of_letter))
        category_plus_letter = torch.cat((batch_of_category, embeding), 1)

        # sequence_length = 1
        category_plus_letter = category_plus_letter.unsqueeze(0)

        out, (hidden, cell) = self.lstm(category_plus_letter, (hidden, cell))  # fails-here
        out = self.out_fc(out)
        out = out.squeeze(0)
        return out, (hidden, cell)

    def training_step(self, batch, batch_num):
        loss = 0
        x_category, x_letters, y_letters = batch
        seq_len = x_letters.size(1)

        hidden = torch.zeros(self.n_layers, x_letters.size(0), self.hidden_size)  # root-cause
        cell = torch.zeros(self.n_layers, x_letters.size(0), self.hidden_size)

        for letter_idx in range(seq_len):
            y_pred, (hidden, cell) = self(x_category, x_letters[:, letter_idx], hidden, cell)
            loss += self.criterion(y_pred, y_letters[:, letter_idx])
        return loss / seq_len

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.lr)


def main():
    n_letters, n_categories = 30, 5
    model = RNN(n_letters, 64, 16, n_categories, 2, n_letters, 0.1).to(device)
    optimizer = model.configure_optimizers()
    for batch_num in range(3):
        x_category = torch.zeros(8, n_categories).to(device)
        x_category[:, 0] = 1.0
        x_letters = torch.randint(0, n_letters, (8, 6)).to(device)
        y_letters = torch.randint(0, n_letters, (8, 6)).to(device)
        optimizer.zero_grad()
        loss = model.training_step((x_category, x_letters, y_letters), batch_num)
        loss.backward()
        optimizer.step()
        print(batch_num, loss.item())


if __name__ == "__main__":
    main()
