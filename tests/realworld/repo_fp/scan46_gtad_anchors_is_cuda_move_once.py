"""G-TAD gtad_lib/models.py: `if not self.anchors.is_cuda: self.anchors = self.anchors.cuda()` in `GraphAlign.forward`

source: https://github.com/frostinassiky/gtad/blob/master/gtad_lib/models.py
false-alarm: DG009 at `self.anchors.cuda()` (and at the model calls of gtad_train.py/gtad_inference.py that reach it):
the test is the tensor's own `is_cuda`, not `torch.cuda.is_available()`, so the branch is not "the other side of a
CUDA availability test": it runs once on every machine, to move the anchors built on the CPU in `__init__` to the GPU,
where the model and the inputs already are (`nn.DataParallel(model).cuda()`, `input_data.cuda()`). G-TAD is GPU-only
(its callers move everything with `.cuda()`, and its `Align1DLayer` is a CUDA extension). The alarm needs the
inference loop over a `DataLoader(..., pin_memory=True)`, as in gtad_inference.py; the offered fix (drop `.cuda()`)
would leave the anchors on the CPU beside CUDA features (scan 46).
Like the original, this needs a GPU.
"""
import torch
import torch.nn as nn


class GraphAlign(nn.Module):
    def __init__(self, t=8, d=8, bs=2):
        super(GraphAlign, self).__init__()
        self.t, self.d, self.bs = t, d, bs
        self._get_anchors()

    def forward(self, x):
        bs, ch, t = x.shape
        if not self.anchors.is_cuda:  # run once
            self.anchors = self.anchors.cuda()
        anchor = self.anchors[:self.anchor_num * bs, :]
        return x.mean(dim=2, keepdim=True) * anchor[:, 1:].sum()

    def _get_anchors(self):
        anchors = []
        for k in range(self.bs):
            for start_index in range(self.t):
                for duration_index in range(self.d):
                    if start_index + duration_index < self.t:
                        anchors.append([k, start_index - 0.5, start_index + duration_index + 0.5])
                    else:
                        anchors.append([k, 0, 0])
        self.anchor_num = len(anchors) // self.bs
        self.anchors = torch.tensor(anchors).float()


class GTAD(nn.Module):
    def __init__(self, opt):
        super(GTAD, self).__init__()
        self.backbone1 = nn.Sequential(nn.Conv1d(opt["feat_dim"], 16, kernel_size=1), nn.ReLU(inplace=True))
        self.goi_align = GraphAlign(t=opt["temporal_scale"], d=opt["temporal_scale"], bs=opt["batch_size"])
        self.localization = nn.Sequential(nn.Conv1d(16, 2, kernel_size=1), nn.Sigmoid())

    def forward(self, snip_feature):
        base_feature = self.backbone1(snip_feature).contiguous()
        subgraph_map = self.goi_align(base_feature)
        iou_map = self.localization(subgraph_map)
        return iou_map, base_feature.mean(1), base_feature.mean(1)


class VideoDataSet(torch.utils.data.Dataset):
    def __init__(self, opt, subset="validation", mode='inference'):
        self.video_list = ['v_%d' % i for i in range(4)]
        self.feat_dim, self.tscale = opt["feat_dim"], opt["temporal_scale"]

    def __getitem__(self, index):
        return index, torch.randn(self.feat_dim, self.tscale)

    def __len__(self):
        return len(self.video_list)


if __name__ == '__main__':
    opt = {"feat_dim": 4, "temporal_scale": 8, "batch_size": 2}
    model = GTAD(opt)
    model = torch.nn.DataParallel(model, device_ids=[0]).cuda()
    model.eval()
    test_loader = torch.utils.data.DataLoader(VideoDataSet(opt, subset="validation", mode='inference'),
                                              batch_size=1, shuffle=False,
                                              num_workers=2, pin_memory=True, drop_last=False)
    with torch.no_grad():
        for idx, input_data in test_loader:
            video_name = test_loader.dataset.video_list[idx[0]]
            input_data = input_data.cuda()
            confidence_map, _, _ = model(input_data)
            print(video_name, confidence_map.detach().cpu().numpy().shape)
