"""Language model from the wingedsheep tutorial, fixed: the positional encoding is a registered buffer, so model.to(device) moves it
source: https://github.com/wingedsheep/transformer/issues/4
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!
outcome: ok
root-cause: none
expect: none
"""
import numpy as np
import torch


def get_device():
    if torch.cuda.is_available():
        return torch.device("cuda")
    return torch.device("cpu")


class TokenEmbedding(torch.nn.Module):
    def __init__(self, embedding_dimension, number_of_tokens):
        super().__init__()
        self.embedding_layer = torch.nn.Embedding(num_embeddings=number_of_tokens, embedding_dim=embedding_dimension)

    def forward(self, x):
        return self.embedding_layer(x)


class PositionalEncoding(torch.nn.Module):
    def __init__(self, embedding_dimension, max_sequence_length):
        super().__init__()
        self.embedding_dimension = embedding_dimension
        self.max_sequence_length = max_sequence_length
        self.register_buffer("positional_encoding", self.create_positional_encoding(), persistent=False)

    def create_positional_encoding(self):
        positional_encoding = np.zeros((self.max_sequence_length, self.embedding_dimension))
        for pos in range(self.max_sequence_length):
            for i in range(0, self.embedding_dimension, 2):
                positional_encoding[pos, i] = np.sin(pos / (10000 ** ((2 * i) / self.embedding_dimension)))
                positional_encoding[pos, i + 1] = np.cos(pos / (10000 ** ((2 * (i + 1)) / self.embedding_dimension)))
        return torch.from_numpy(positional_encoding).float()

    def forward(self, x):
        return x + self.positional_encoding[:x.size(1), :]


class LanguageModel(torch.nn.Module):
    def __init__(self, number_of_tokens, max_sequence_length=32, embedding_dimension=16, number_of_heads=2):
        super().__init__()
        self.token_embedding = TokenEmbedding(embedding_dimension, number_of_tokens)
        self.positional_encoding = PositionalEncoding(embedding_dimension, max_sequence_length)
        self.layer_normalization = torch.nn.LayerNorm(embedding_dimension)
        self.attention = torch.nn.MultiheadAttention(embedding_dimension, number_of_heads, batch_first=True)
        self.lm_head = torch.nn.Linear(embedding_dimension, number_of_tokens)

    def forward(self, x, mask):
        token_embeddings = self.token_embedding(x)
        positional_encoding = self.positional_encoding(token_embeddings)
        normalized = self.layer_normalization(positional_encoding)
        attended, _ = self.attention(normalized, normalized, normalized, key_padding_mask=mask == 0)
        return self.lm_head(attended)


class AutoregressiveWrapper(torch.nn.Module):
    def __init__(self, gpt_model):
        super().__init__()
        self.model = gpt_model

    def forward(self, x, mask):
        inp, target = x[:, :-1], x[:, 1:]
        mask = mask[:, :-1]
        output = self.model(inp, mask)
        return output, target


class Trainer:
    def __init__(self, model, tokenizer_size, optimizer=None):
        self.model = model
        self.optimizer = optimizer or torch.optim.Adam(model.parameters(), lr=1e-3)
        self.loss_function = torch.nn.CrossEntropyLoss()
        self.tokenizer_size = tokenizer_size

    def train(self, data, epochs, batch_size):
        for epoch in range(epochs):
            for i in range(0, len(data), batch_size):
                sequence_tensor = data[i:i + batch_size].to(get_device())
                mask_tensor = torch.ones_like(sequence_tensor)
                self.model.train()
                model_output, target = self.model.forward(x=sequence_tensor, mask=mask_tensor)
                loss = self.loss_function(model_output.transpose(1, 2), target)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), 0.5)
                self.optimizer.step()
                self.optimizer.zero_grad()
            print(f"Epoch {epoch} loss {loss.item():.4f}")


def main():
    number_of_tokens = 20
    model = AutoregressiveWrapper(LanguageModel(number_of_tokens)).to(get_device())
    data = torch.randint(0, number_of_tokens, (16, 17))
    trainer = Trainer(model, number_of_tokens)
    trainer.train(data, epochs=2, batch_size=8)


if __name__ == "__main__":
    main()
