"""Universal adversarial perturbation generator: the images (and the perturbation v) are sent to the device inside generate(), but the classifier returned by the model helper is never moved there
source: https://github.com/NetoPedro/Universal-Adversarial-Perturbations-Pytorch/issues/1
reported-error: RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same (r2 = (net(cur_img1).max(1)[1]))
outcome: cuda-only: RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same (the CUDA image batch reaches the CPU classifier; exact wording varies with the torch version) at line 46; on CPU: ok
root-cause: line 59
expect: DG009
"""
import numpy as np
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"


def get_model(num_classes=10):
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        nn.Linear(32, num_classes),
    )


def project_lp(v, xi, p):
    if p == np.inf:
        return v.clamp(-xi, xi)
    return v * min(1, xi / (v.norm(p=p) + 1e-12))


def deepfool_step(image, net, num_classes=10, overshoot=0.02):
    image = image.clone().requires_grad_(True)
    out = net(image)
    label = out.argmax(1)
    top2 = out.topk(2, dim=1).indices[0, 1]
    (out[0, top2] - out[0, label]).backward()
    w = image.grad
    return (1 + overshoot) * w / (w.norm() + 1e-8) * 0.05


def generate(trainset, net, delta=0.2, max_iter_uni=2, xi=10 / 255.0, p=np.inf):
    v = torch.zeros(1, 3, 32, 32, device=device)
    fooling_rate, itr = 0.0, 0
    while fooling_rate < 1 - delta and itr < max_iter_uni:
        for img in trainset:
            cur_img = img.unsqueeze(0).to(device)
            cur_img1 = (cur_img + v).clamp(0, 1)
            r2 = (net(cur_img1).max(1)[1])  # fails-here
            r1 = net(cur_img).max(1)[1]
            if int(r1) == int(r2):
                v = project_lp(v + deepfool_step(cur_img1, net), xi, p)
        with torch.no_grad():
            batch = torch.stack(list(trainset)).to(device)
            fooling_rate = float((net(batch).argmax(1) != net((batch + v).clamp(0, 1)).argmax(1)).float().mean())
        itr += 1
        print(f"iteration {itr}: fooling rate {fooling_rate:.2f}")
    return v


torch.manual_seed(0)
net = get_model()  # root-cause
net.eval()
trainset = [torch.rand(3, 32, 32) for _ in range(8)]
v = generate(trainset, net)
print("perturbation norm", float(v.abs().max()))
