"""Multi-label classification training in Geti with OTX's OTXMultilabelClsDataset (re-typed with datumaro-like items and Label annotations, the MultilabelClsBatchDataEntity-style collate and a small multi-label head): each item's labels are built with torch.as_tensor([ann.label for ann in label_anns]) and turned into a multi-hot target by F.one_hot(labels, num_classes).sum(0); an image annotated with no label gives torch.as_tensor([]), which is float32, and F.one_hot refuses it when that image is fetched
source: https://github.com/open-edge-platform/geti/pull/4336
reported-error: "For multilabel classification, we use torch' one_hot to get one hot encoding of the labels. This method requires labels to be for dtype LongTensor. When we have empty labels, then the tensor is of type float32. This gives an error." (the PR converts the labels to LongTensor before calling one_hot; "Does the problem occur only on samples with no labels?" "Yes.")
outcome: RuntimeError: one_hot is only applicable to index tensor of type LongTensor. at line 71
root-cause: line 66
expect: DG006
"""
from dataclasses import dataclass, field
from typing import List

import numpy as np
import torch
import torch.nn as nn
from torch.nn import functional

torch.manual_seed(0)
rng = np.random.default_rng(0)
LABEL_NAMES = ["scratch", "dent", "stain", "crack"]


@dataclass
class Label:
    """datumaro.components.annotation.Label"""
    label: int
    id: int = 0
    group: int = 0


@dataclass
class DatasetItem:
    id: str
    image: np.ndarray
    annotations: List[Label] = field(default_factory=list)


def make_project_items(n=48):
    """A Geti multi-label project export: some images carry several labels, some were annotated with none."""
    items = []
    for i in range(n):
        k = int(rng.choice([0, 1, 1, 2, 3], p=[0.15, 0.35, 0.2, 0.2, 0.1]))
        chosen = sorted(rng.choice(len(LABEL_NAMES), size=k, replace=False).tolist())
        image = rng.integers(0, 256, size=(32, 32, 3), dtype=np.uint8)
        for c in chosen:  # a faint per-class pattern so that the task is learnable
            image[:, 8 * c:8 * c + 8, c % 3] = 255
        items.append(DatasetItem(id=f"img_{i:03d}", image=image,
                                 annotations=[Label(label=c, id=j) for j, c in enumerate(chosen)]))
    return items


class OTXMultilabelClsDataset(torch.utils.data.Dataset):
    """otx.core.data.dataset.classification.OTXMultilabelClsDataset (the image pipeline reduced to ToTensor)."""

    def __init__(self, dm_items, num_classes):
        self.dm_items = dm_items
        self.num_classes = num_classes

    def __len__(self):
        return len(self.dm_items)

    def __getitem__(self, index):
        item = self.dm_items[index]
        ignored_labels: List[int] = []
        img_data = torch.from_numpy(item.image).permute(2, 0, 1).float() / 255.0

        label_anns = [ann for ann in item.annotations if isinstance(ann, Label)]
        labels = torch.as_tensor([ann.label for ann in label_anns])  # root-cause
        return {"image": img_data, "img_id": item.id, "labels": self._convert_to_onehot(labels, ignored_labels)}

    def _convert_to_onehot(self, labels, ignored_labels):
        """Convert label to one-hot vector format."""
        onehot = functional.one_hot(labels, self.num_classes).sum(0).clamp_max_(1)  # root-cause-alt  # fails-here
        if ignored_labels:
            for ignore_label in ignored_labels:
                onehot[ignore_label] = -1
        return onehot

    @staticmethod
    def collate_fn(entities):
        """MultilabelClsBatchDataEntity.collate_fn with stack_images=True"""
        return {"images": torch.stack([e["image"] for e in entities]),
                "imgs_info": [e["img_id"] for e in entities],
                "labels": torch.stack([e["labels"] for e in entities])}


class MultiLabelClassifier(nn.Module):
    """A small backbone with a multi-label linear head (sigmoid outputs)."""

    def __init__(self, num_classes):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4), nn.Flatten())
        self.head = nn.Linear(16 * 16, num_classes)

    def forward(self, images):
        return self.head(self.backbone(images))

    def loss(self, logits, labels):
        valid = labels >= 0  # ignored labels are -1
        return functional.binary_cross_entropy_with_logits(logits[valid], labels[valid].to(logits.dtype))


dataset = OTXMultilabelClsDataset(make_project_items(), num_classes=len(LABEL_NAMES))
loader = torch.utils.data.DataLoader(dataset, batch_size=8, shuffle=True, collate_fn=dataset.collate_fn)
model = MultiLabelClassifier(len(LABEL_NAMES))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

for epoch in range(3):
    for batch in loader:
        logits = model(batch["images"])
        loss = model.loss(logits, batch["labels"])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("epoch %d: loss %.4f" % (epoch, loss.item()))
