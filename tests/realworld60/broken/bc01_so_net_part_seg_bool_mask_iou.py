"""ShapeNet-part segmentation in the SO-Net way (part-seg/train.py, re-typed with a small per-point network): the test loop reports a high per-point accuracy, but losses.compute_iou builds the part masks with comparisons (bool tensors) and adds them, gt + predict, which is a logical OR on bool tensors, so (gt + predict) == 2 is never true and every part present in the shape gets IoU 0; the validation mIoU stays near 0.16 while the accuracy is above 0.9
source: https://github.com/lijx10/SO-Net/issues/37
reported-error: "The validation mIoU is only reaching 0.16, although the validation accuracy is about 90%" (fix suggested in PR #38: "in calculation of IoU, the tensors need to be converted to int from boolean before adding", intersection = (gt.int() + predict.int()) == 2)
outcome: ok (silent: compute_iou, called at line 127, adds two bool masks at line 49, so (gt + predict) == 2 is never true; the run prints "final: test accuracy 0.9842, test mIoU 0.0000": every part present in a shape gets IoU 0 while the per-point accuracy is 0.98)
root-cause: line 49
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)

# models/losses.py: the 16 ShapeNet categories and their part ids (50 parts in all)
part_label = [
    [0, 1, 2, 3], [4, 5], [6, 7], [8, 9, 10, 11], [12, 13, 14, 15], [16, 17, 18], [19, 20, 21], [22, 23],
    [24, 25, 26, 27], [28, 29], [30, 31, 32, 33, 34, 35], [36, 37], [38, 39, 40], [41, 42, 43], [44, 45, 46],
    [47, 48, 49],
]
NUM_PARTS = 50
NUM_POINTS = 256


class CrossEntropyLossSeg(nn.Module):
    def __init__(self, weight=None):
        super().__init__()
        self.nll_loss = nn.NLLLoss(weight)

    def forward(self, inputs, targets):
        """inputs: BxclassxN, targets: BxN"""
        inputs = inputs.unsqueeze(3)
        targets = targets.unsqueeze(2)
        return self.nll_loss(F.log_softmax(inputs, dim=1), targets)


def compute_iou(score, seg, label):
    """score: BxCxN tensor, seg: BxN tensor (as in SO-Net's models/losses.py before PR #38)"""
    _, seg_predicted = torch.max(score, dim=1)  # BxN

    iou_batch = []
    for i in range(score.size()[0]):
        iou_pc = []
        for part in part_label[label[i]]:
            gt = seg[i] == part
            predict = seg_predicted[i] == part

            intersection = (gt + predict) == 2  # root-cause
            union = (gt + predict) >= 1  # root-cause-alt

            if union.sum() == 0:
                iou_part = 1.0
            else:
                iou_part = intersection.int().sum().item() / (union.int().sum().item() + 0.0001)
            iou_pc.append(iou_part)

        iou_batch.append(np.asarray(iou_pc).mean())

    return np.asarray(iou_batch).mean()


class ShapeNetLoader(torch.utils.data.Dataset):
    """Synthetic stand-in for data/shapenet_loader.py: points in a cube, parts split along the x axis."""

    def __init__(self, n):
        self.label = np.random.randint(0, 16, size=n)
        self.pc = np.random.uniform(-1, 1, size=(n, 3, NUM_POINTS)).astype(np.float32)

    def __len__(self):
        return len(self.label)

    def __getitem__(self, idx):
        label = int(self.label[idx])
        pc = self.pc[idx]
        parts = part_label[label]
        bins = np.clip(((pc[0] + 1) / 2 * len(parts)).astype(np.int64), 0, len(parts) - 1)
        seg = np.asarray(parts, dtype=np.int64)[bins]
        return torch.from_numpy(pc), label, torch.from_numpy(seg)


class Segmenter(nn.Module):
    """Per-point MLP with the category one-hot, standing in for the SOM encoder + segmenter."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(3 + 16, 128, 1), nn.ReLU(), nn.Conv1d(128, 128, 1), nn.ReLU(),
                                 nn.Conv1d(128, NUM_PARTS, 1))

    def forward(self, pc, label):
        onehot = F.one_hot(label, 16).float().unsqueeze(2).expand(-1, -1, pc.shape[2])
        return self.net(torch.cat([pc, onehot], dim=1))


trainset = ShapeNetLoader(512)
testset = ShapeNetLoader(128)
trainloader = torch.utils.data.DataLoader(trainset, batch_size=16, shuffle=True)
testloader = torch.utils.data.DataLoader(testset, batch_size=16, shuffle=False)

model = Segmenter()
softmax_segmenter = CrossEntropyLossSeg()
optimizer = torch.optim.Adam(model.parameters(), lr=0.003)

for epoch in range(4):
    for input_pc, input_label, input_seg in trainloader:
        score_segmenter = model(input_pc, input_label)
        loss_segmenter = softmax_segmenter(score_segmenter, input_seg)
        optimizer.zero_grad()
        loss_segmenter.backward()
        optimizer.step()

    # test network
    batch_amount = 0
    test_accuracy_segmenter = torch.FloatTensor([0])
    test_iou = torch.FloatTensor([0])
    model.eval()
    with torch.no_grad():
        for input_pc, input_label, input_seg in testloader:
            score_segmenter = model(input_pc, input_label)
            batch_amount += input_label.size()[0]

            _, predicted_seg = torch.max(score_segmenter.data, dim=1, keepdim=False)
            correct_mask = torch.eq(predicted_seg, input_seg).float()
            test_accuracy_segmenter += torch.mean(correct_mask) * input_label.size()[0]

            # segmentation iou
            test_iou_batch = compute_iou(score_segmenter.data, input_seg.data, input_label.data)
            test_iou += test_iou_batch * input_label.size()[0]
    model.train()
    test_accuracy_segmenter /= batch_amount
    test_iou /= batch_amount
    print("epoch %d: test accuracy %.4f, test mIoU %.4f" % (epoch, test_accuracy_segmenter.item(), test_iou.item()))

print("final: test accuracy %.4f, test mIoU %.4f" % (test_accuracy_segmenter.item(), test_iou.item()))
