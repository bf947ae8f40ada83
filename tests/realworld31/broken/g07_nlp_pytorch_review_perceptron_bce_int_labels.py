"""Review-sentiment perceptron (nazariinyzhnyk/nlp-pytorch playground, NLP-with-PyTorch layout: Vectorizer, ReviewDataset, Perceptron with BCEWithLogits-free sigmoid + nn.BCELoss): the dataset returns the rating column as an int64 tensor, while the playground's targets were float32, so BCELoss refuses the batch targets
source: https://github.com/nazariinyzhnyk/nlp-pytorch/blob/9013c70903f95d640431804b90a3735720f839eb/playground/bce_loss.py
reported-error: (none filed; the playground builds targets with dtype=torch.float32; the variant's integer label column fails in nn.BCELoss)
outcome: RuntimeError: Found dtype Long but expected Float at line 66
root-cause: line 38
expect: DG007
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class ReviewVectorizer:
    def __init__(self, vocab):
        self.vocab = {w: i for i, w in enumerate(vocab)}

    def vectorize(self, review):
        one_hot = np.zeros(len(self.vocab), dtype=np.float32)
        for token in review.split(" "):
            if token in self.vocab:
                one_hot[self.vocab[token]] = 1
        return one_hot


class ReviewDataset(Dataset):
    def __init__(self, review_df, vectorizer):
        self.review_df = review_df
        self._vectorizer = vectorizer

    def __len__(self):
        return len(self.review_df)

    def __getitem__(self, index):
        row = self.review_df.iloc[index]
        review_vector = torch.from_numpy(self._vectorizer.vectorize(row.review))
        rating_index = torch.tensor(row.rating)  # root-cause
        return {"x_data": review_vector, "y_target": rating_index}


class Perceptron(nn.Module):
    def __init__(self, num_features):
        super(Perceptron, self).__init__()
        self.fc1 = nn.Linear(in_features=num_features, out_features=1)
        self.sigmoid = nn.Sigmoid()

    def forward(self, x_in):
        return self.sigmoid(self.fc1(x_in)).squeeze(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab = ["good", "bad", "great", "awful", "food", "service", "slow", "tasty"]
    rng = np.random.default_rng(0)
    reviews = [" ".join(rng.choice(vocab, 5)) for _ in range(40)]
    df = pd.DataFrame({"review": reviews, "rating": [int("good" in r or "great" in r) for r in reviews]})
    loader = DataLoader(ReviewDataset(df, ReviewVectorizer(vocab)), batch_size=8, shuffle=True)
    classifier = Perceptron(num_features=len(vocab))
    bce_loss = nn.BCELoss()
    optimizer = torch.optim.Adam(classifier.parameters(), lr=0.01)
    for epoch in range(2):
        for batch_dict in loader:
            optimizer.zero_grad()
            y_pred = classifier(batch_dict["x_data"])
            loss = bce_loss(y_pred, batch_dict["y_target"])  # fails-here
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")
