import torch.nn as nn
from torch.autograd import Function


class ReverseLayerF(Function):
    @staticmethod
    def forward(ctx, x, alpha):
        ctx.alpha = alpha
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.neg() * ctx.alpha, None


class DANN(nn.Module):
    def __init__(self, momentum=0.5, n_features=310, n_classes=4):
        super(DANN, self).__init__()
        self.feature = nn.Sequential(nn.Linear(n_features, 128), nn.BatchNorm1d(128, momentum=momentum), nn.ReLU(),
                                     nn.Linear(128, 64), nn.BatchNorm1d(64, momentum=momentum), nn.ReLU())
        self.class_classifier = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, n_classes),
                                              nn.LogSoftmax(dim=1))
        self.domain_classifier = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 2), nn.LogSoftmax(dim=1))

    def forward(self, input_data, alpha):
        feature = self.feature(input_data)
        reverse_feature = ReverseLayerF.apply(feature, alpha)
        class_output = self.class_classifier(feature)
        domain_output = self.domain_classifier(reverse_feature)
        return class_output, domain_output
