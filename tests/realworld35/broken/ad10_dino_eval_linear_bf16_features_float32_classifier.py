"""Linear evaluation of frozen DINO features (facebookresearch/dino eval_linear.py: frozen backbone (ViT [CLS] tokens of the last n blocks, or a torchvision ResNet-50 with fc = nn.Identity()), LinearClassifier trained with SGD + cosine schedule, validate_network with top-k accuracy): the variant evaluates the ResNet-50 checkpoint and computes the frozen features under torch.no_grad() together with a bfloat16 torch.autocast to save time, while the float32 linear classifier is still called after the with-block on the pooled bfloat16 features
source: https://github.com/facebookresearch/dino/blob/9085367cf5186b29f69c85eb7fdacc3057094031/eval_linear.py
reported-error: (none filed; eval_linear.py extracts features in float32; the variant's bfloat16 features fail in the float32 LinearClassifier)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got BFloat16 and Float at line 135
root-cause: line 97
expect: DG017
"""
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


# ---- torchvision.models.resnet50 at toy size (DINO also releases a ResNet-50 checkpoint)
class BasicBlock(nn.Module):
    def __init__(self, planes):
        super().__init__()
        self.conv1, self.bn1 = nn.Conv2d(planes, planes, 3, padding=1, bias=False), nn.BatchNorm2d(planes)
        self.conv2, self.bn2 = nn.Conv2d(planes, planes, 3, padding=1, bias=False), nn.BatchNorm2d(planes)

    def forward(self, x):
        out = torch.relu(self.bn1(self.conv1(x)))
        return torch.relu(self.bn2(self.conv2(out)) + x)


class ResNet(nn.Module):
    def __init__(self, width=64, num_classes=1000):
        super().__init__()
        self.conv1, self.bn1 = nn.Conv2d(3, width, 7, stride=2, padding=3, bias=False), nn.BatchNorm2d(width)
        self.layer1 = BasicBlock(width)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(width, num_classes)

    def forward(self, x):
        x = self.layer1(torch.relu(self.bn1(self.conv1(x))))
        return self.fc(torch.flatten(self.avgpool(x), 1))


torchvision_models = {"resnet50": ResNet}


# ---- eval_linear.py
def eval_linear(args):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    # ============ preparing data ... (ImageFolder replaced by synthetic normalised images) ============
    g = torch.Generator().manual_seed(0)
    dataset_train = TensorDataset(torch.randn(64, 3, 32, 32, generator=g), torch.randint(0, args.num_labels, (64,), generator=g))
    dataset_val = TensorDataset(torch.randn(32, 3, 32, 32, generator=g), torch.randint(0, args.num_labels, (32,), generator=g))
    train_loader = DataLoader(dataset_train, batch_size=args.batch_size_per_gpu, shuffle=True)
    val_loader = DataLoader(dataset_val, batch_size=args.batch_size_per_gpu)
    print(f"Data loaded with {len(dataset_train)} train and {len(dataset_val)} val imgs.")

    # ============ building network ... ============
    # (the vit_* branch, model = vits.__dict__[args.arch](...), is not used by this ResNet-50 run)
    if args.arch in torchvision_models:
        model = torchvision_models[args.arch]()
        embed_dim = model.fc.weight.shape[1]
        model.fc = nn.Identity()
    model.to(device)
    model.eval()
    print(f"Model {args.arch} built.")

    linear_classifier = LinearClassifier(embed_dim, num_labels=args.num_labels).to(device)
    optimizer = torch.optim.SGD(linear_classifier.parameters(), args.lr * args.batch_size_per_gpu / 256., momentum=0.9, weight_decay=0)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, args.epochs, eta_min=0)

    best_acc = 0.
    for epoch in range(0, args.epochs):
        train_stats = train(model, linear_classifier, optimizer, train_loader, epoch, args.n_last_blocks, args.avgpool_patchtokens)
        scheduler.step()
        test_stats = validate_network(val_loader, model, linear_classifier, args.n_last_blocks, args.avgpool_patchtokens)
        best_acc = max(best_acc, test_stats["acc1"])
        print(f"Epoch {epoch}: train loss {train_stats['loss']:.3f}, acc@1 {test_stats['acc1']:.1f}%, max {best_acc:.2f}%")


def extract(model, inp, n, avgpool):
    if "vit" in args.arch:
        intermediate_output = model.get_intermediate_layers(inp, n)
        output = [x[:, 0] for x in intermediate_output]
        if avgpool:
            output.append(torch.mean(intermediate_output[-1][:, 1:], dim=1))
        return torch.cat(output, dim=-1)
    return model(inp)


def train(model, linear_classifier, optimizer, loader, epoch, n, avgpool):
    linear_classifier.train()
    losses = []
    for (inp, target) in loader:
        # move to gpu (DINO: inp.cuda(non_blocking=True)); the classifier's device, so it runs on CPU too
        inp = inp.to(next(linear_classifier.parameters()).device, non_blocking=True)
        target = target.to(inp.device, non_blocking=True)
        # forward: frozen features in bfloat16
        with torch.no_grad(), torch.autocast(device_type=inp.device.type, dtype=torch.bfloat16):
            output = extract(model, inp, n, avgpool)
        output = linear_classifier(output)  # root-cause
        loss = nn.CrossEntropyLoss()(output, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return {"loss": sum(losses) / len(losses), "lr": optimizer.param_groups[0]["lr"]}


@torch.no_grad()
def validate_network(val_loader, model, linear_classifier, n, avgpool):
    linear_classifier.eval()
    correct = total = 0
    for inp, target in val_loader:
        # move to gpu (DINO: inp.cuda(non_blocking=True)); the classifier's device, so it runs on CPU too
        inp = inp.to(next(linear_classifier.parameters()).device, non_blocking=True)
        target = target.to(inp.device, non_blocking=True)
        with torch.autocast(device_type=inp.device.type, dtype=torch.bfloat16):
            output = extract(model, inp, n, avgpool)
        output = linear_classifier(output)
        correct += (output.argmax(-1) == target).sum().item()
        total += inp.shape[0]
    return {"acc1": 100. * correct / total}


class LinearClassifier(nn.Module):
    """Linear layer to train on top of frozen features"""
    def __init__(self, dim, num_labels=1000):
        super(LinearClassifier, self).__init__()
        self.num_labels = num_labels
        self.linear = nn.Linear(dim, num_labels)
        self.linear.weight.data.normal_(mean=0.0, std=0.01)
        self.linear.bias.data.zero_()

    def forward(self, x):
        # flatten
        x = x.view(x.size(0), -1)
        # linear layer
        return self.linear(x)  # fails-here


if __name__ == '__main__':
    parser = argparse.ArgumentParser('Evaluation with linear classification on ImageNet')
    parser.add_argument('--n_last_blocks', default=4, type=int)
    parser.add_argument('--avgpool_patchtokens', default=False, type=bool)
    parser.add_argument('--arch', default='resnet50', type=str, help='Architecture')
    parser.add_argument('--epochs', default=2, type=int, help='Number of epochs of training.')
    parser.add_argument("--lr", default=0.001, type=float)
    parser.add_argument('--batch_size_per_gpu', default=16, type=int, help='Per-GPU batch-size')
    parser.add_argument('--num_labels', default=10, type=int, help='Number of labels for linear classifier')
    args = parser.parse_args()
    eval_linear(args)
