"""pytorch_tabular picks weights_only=False for its pickled dataset cache on torch >= 2.6 with a version gate

source: https://github.com/manujosephv/pytorch_tabular/blob/023db2776f96a0f2854e837eef62840be1a12a5e/src/pytorch_tabular/tabular_datamodule.py#L490
(the load is tabular_datamodule.py#L762; the same gate in utils/python_utils.py#L80 and #L92, whose `pl_load`
the finding also names, and copies at tabular_model.py#L402 and docs/tutorials/16-Model Stacking.ipynb cell 18)
false-alarm: DG011 at line 46 (the load at line 53): `torch.save(train_dataset, ...)` pickles a
`TabularDataset`, and the bare `torch.load` that the finding names runs only under
`if torch_version < "2.6":`. `torch.__version__` is a `torch.torch_version.TorchVersion`, a str subclass whose
comparisons parse versions: on torch 2.13, `torch.__version__ < "2.6"` is False (as a plain str it would be
True), so the `elif torch_version >= "2.6":` branch runs, `torch.load(..., weights_only=False)`, which loads the
object. On torch < 2.6 the bare load defaults to weights_only=False and loads it too. (python_utils.py's
`pl_load` also never reads this cache: it loads Lightning checkpoints.) This reduction runs on the CPU (exit 0).
"""
# Reduction: TabularDataset keeps a DataFrame and its target as NumPy arrays; the datamodule keeps the disk cache
# mode only (cache_data="disk" in the repo writes the two datasets under cache_dir and reads them back in the
# train_dataset / validation_dataset properties).
import pathlib
import tempfile

import pandas as pd
import torch
from torch.utils.data import Dataset


class TabularDataset(Dataset):
    def __init__(self, data, continuous_cols, target):
        self.n = len(data)
        self.continuous_X = data[continuous_cols].astype("float32").values
        self.y = data[target].astype("float32").values

    def __len__(self):
        return self.n

    def __getitem__(self, idx):
        return {"continuous": self.continuous_X[idx], "target": self.y[idx]}


class TabularDatamodule:
    def __init__(self, train, cache_dir):
        self.train = train
        self.cache_dir = pathlib.Path(cache_dir)

    def _cache_dataset(self):
        train_dataset = TabularDataset(self.train, ["a", "b"], ["y"])
        self.train = None
        torch.save(train_dataset, self.cache_dir / "train_dataset", pickle_protocol=2)

    def _load_dataset_from_cache(self, tag="train"):
        try:
            # get the torch version
            torch_version = torch.__version__
            if torch_version < "2.6":
                dataset = torch.load(
                    self.cache_dir / f"{tag}_dataset"
                )  # fix for torch version change of torch.load
            elif torch_version >= "2.6":
                dataset = torch.load(self.cache_dir / f"{tag}_dataset", weights_only=False)
        except FileNotFoundError:
            raise FileNotFoundError(f"{tag}_dataset not found in {self.cache_dir}")
        return dataset

    @property
    def train_dataset(self):
        return self._load_dataset_from_cache("train")

    def train_dataloader(self, batch_size=4):
        return torch.utils.data.DataLoader(self.train_dataset, batch_size=batch_size)


if __name__ == "__main__":
    df = pd.DataFrame({"a": [0.1, 0.2, 0.3, 0.4], "b": [1.0, 2.0, 3.0, 4.0], "y": [0.0, 1.0, 0.0, 1.0]})
    dm = TabularDatamodule(df, tempfile.mkdtemp())
    dm._cache_dataset()
    model = torch.nn.Linear(2, 1)
    for batch in dm.train_dataloader():
        loss = torch.nn.functional.mse_loss(model(batch["continuous"]), batch["target"])
    print(torch.__version__, "loss", round(loss.item(), 4))
