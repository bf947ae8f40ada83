"""ASTER demo: a CPU target tensor in the input dict reaches the loss's gather only through nn.DataParallel, which moves it to the GPU

source: https://github.com/ayumiymk/aster.pytorch/blob/be670046c775b54de79766208f0c59321ae1eccf/demo.py#L100
(the loss is lib/loss/sequenceCrossEntropyLoss.py#L52, called from lib/models/model_builder.py#L93 in eval mode)
false-alarm: DG009 at line 39: `rec_targets = torch.IntTensor(1, max_len)` (line 80) is a CPU tensor, but the model only
goes to the GPU inside `if args.cuda:` (line 67), and that branch always wraps it in `nn.DataParallel` (line 70). DataParallel's
forward scatters its inputs before calling the module, even with one GPU (torch/nn/parallel/data_parallel.py:
`inputs, module_kwargs = self.scatter(...)`, then `self.module(*inputs[0], ...)` when len(device_ids) == 1), and
scatter_map recurses into dicts (scatter_gather.py: `isinstance(obj, dict)` -> Scatter.apply on every tensor), so
`input_dict['rec_targets']` arrives on cuda:0 next to the GPU log-probabilities and `.gather()` runs on one device.
Without CUDA nothing is on the GPU. (The repo's demo.py has no `else:` for `device`, so on a CPU-only machine it
stops earlier with a NameError at `img.to(device)`; the reduction adds `device = cpu` there so it runs to the end.)
This reduction runs on the CPU (exit 0); the GPU path could not be run here (no GPU lent to this task).
"""
# Reduction: the STN/ResNet encoder is a 3x3 conv, the attention decoder a linear layer repeated over max_len
# steps, the image file a random tensor, the vocabulary 10 classes; SequenceCrossEntropyLoss and the demo's
# input_dict / DataParallel shape are kept as in the repo.
import argparse

import torch
import torch.nn.functional as F
from torch import nn


class SequenceCrossEntropyLoss(nn.Module):
  def forward(self, input, target, length):
    batch_size, def_max_length = target.size(0), target.size(1)
    mask = torch.zeros(batch_size, def_max_length)
    for i in range(batch_size):
      mask[i, :length[i]].fill_(1)
    mask = mask.type_as(input)
    max_length = max(length)
    target = target[:, :max_length]
    mask = mask[:, :max_length]
    input = input.contiguous().view(-1, input.size(2))
    input = F.log_softmax(input, dim=1)
    target = target.contiguous().view(-1, 1)
    mask = mask.contiguous().view(-1, 1)
    output = - input.gather(1, target.long()) * mask
    output = torch.sum(output)
    return output / batch_size


class ModelBuilder(nn.Module):
  def __init__(self, rec_num_classes, max_len_labels):
    super(ModelBuilder, self).__init__()
    self.encoder = nn.Conv2d(3, 8, 3, 1, 1)
    self.decoder = nn.Linear(8, rec_num_classes)
    self.max_len_labels = max_len_labels
    self.rec_crit = SequenceCrossEntropyLoss()

  def forward(self, input_dict):
    return_dict = {'losses': {}, 'output': {}}
    x, rec_targets, rec_lengths = input_dict['images'], input_dict['rec_targets'], input_dict['rec_lengths']
    feats = self.encoder(x).mean((2, 3))
    rec_pred = self.decoder(feats).unsqueeze(1).repeat(1, self.max_len_labels, 1)
    loss_rec = self.rec_crit(rec_pred, rec_targets, rec_lengths)
    return_dict['losses']['loss_rec'] = loss_rec
    return_dict['output']['pred_rec'] = rec_pred.argmax(2)
    return return_dict


def main(args):
  args.cuda = args.cuda and torch.cuda.is_available()
  model = ModelBuilder(rec_num_classes=10, max_len_labels=args.max_len)

  if args.cuda:
    device = torch.device("cuda")
    model = model.to(device)
    model = nn.DataParallel(model)
  else:
    device = torch.device("cpu")

  model.eval()
  img = torch.rand(3, 32, 100)
  with torch.no_grad():
    img = img.to(device)
  input_dict = {}
  input_dict['images'] = img.unsqueeze(0)
  rec_targets = torch.IntTensor(1, args.max_len).fill_(1)
  rec_targets[:, args.max_len - 1] = 9
  input_dict['rec_targets'] = rec_targets
  input_dict['rec_lengths'] = [args.max_len]
  output_dict = model(input_dict)
  print(output_dict['output']['pred_rec'], output_dict['losses']['loss_rec'].item())


if __name__ == '__main__':
  parser = argparse.ArgumentParser()
  parser.add_argument('--cuda', action='store_true', default=True)
  parser.add_argument('--max_len', type=int, default=5)
  main(parser.parse_args())
