"""Vertebra and disc segmentation with a dilated residual UNet (sulaimanvesal/vertebraeSegementation issue #4: src/utils/loss.py calls torch.set_default_tensor_type('torch.cuda.FloatTensor') at module level, and trainer.py imports DiceCoefMultilabelLoss from it): on the reporter's machine, whose PyTorch has no CUDA, the deprecated call raises while trainer.py is still importing its loss, before any data or model exists
source: https://github.com/sulaimanvesal/vertebraeSegementation/issues/4
reported-error: TypeError: type torch.cuda.FloatTensor not available. Torch not compiled with CUDA enabled. (from src/utils/loss.py line 14, torch.set_default_tensor_type('torch.cuda.FloatTensor'), imported by src/trainer.py line 17)
outcome: TypeError: type torch.cuda.FloatTensor not available. Torch not compiled with CUDA enabled. at line 25
root-cause: line 25
expect: DG002
"""
import argparse
import os
import tempfile
from datetime import datetime

import numpy as np
import pandas as pd

import torch
import torch as t
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable
from torch.optim.lr_scheduler import ReduceLROnPlateau


# ---- src/utils/loss.py
torch.set_default_tensor_type('torch.cuda.FloatTensor')  # root-cause  # fails-here


class CrossEntropy2d(nn.Module):

    def __init__(self, size_average=True, ignore_label=255):
        super(CrossEntropy2d, self).__init__()
        self.size_average = size_average
        self.ignore_label = ignore_label

    def forward(self, predict, target, weight=None):
        n, c, h, w = predict.size()
        target_mask = (target >= 0) * (target != self.ignore_label)
        target = target[target_mask]
        if not target.data.dim():
            return Variable(torch.zeros(1))
        predict = predict.transpose(1, 2).transpose(2, 3).contiguous()
        predict = predict[target_mask.view(n, h, w, 1).repeat(1, 1, 1, c)].view(-1, c)
        return F.cross_entropy(predict, target, weight=weight)


class DiceCoefMultilabelLoss(nn.Module):

    def __init__(self, cuda=True):
        super().__init__()
        self.one = torch.tensor(1., dtype=torch.float32).cuda()
        self.activation = torch.nn.Softmax2d()

    def dice_loss(self, predict, target):
        predict = predict.contiguous().view(-1)
        target = target.contiguous().view(-1)
        intersection = predict * target.cuda().float()
        score = (intersection.sum() * 2. + 1.) / (predict.sum() + target.sum() + 1.)
        return 1. - score

    def forward(self, predict, target, numLabels=3, channel='channel_first'):
        dice = 0
        predict = self.activation(predict)
        if channel == 'channel_first':
            for index in range(numLabels):
                dice += self.dice_loss(predict[:, index, :, :], target[:, index, :, :])
        else:
            for index in range(numLabels):
                dice += self.dice_loss(predict[:, :, :, index], target[:, :, :, index])
        return dice / numLabels


# ---- src/utils/metric.py, src/utils/utils.py
def soft_to_hard_pred(pred, channel_axis=1):
    max_value = np.max(pred, axis=channel_axis, keepdims=True)
    return np.where(pred == max_value, 1, 0)


def dice_coef_multilabel(y_true, y_pred, numLabels=3, channel='channel_first'):
    dice = 0
    for index in range(numLabels):
        yt, yp = y_true[:, index], y_pred[:, index]
        dice += (2. * (yt * yp).sum() + 1.) / (yt.sum() + yp.sum() + 1.)
    return dice / numLabels


# ---- src/utils/callbacks.py
class EarlyStoppingCallback:
    def __init__(self, patience=10, mode="max"):
        self.patience, self.mode, self.best, self.counter = patience, mode, None, 0

    def step(self, monitor):
        if self.best is None or monitor > self.best:
            self.best, self.counter = monitor, 0
        else:
            self.counter += 1

    def should_stop(self):
        return self.counter >= self.patience


class ModelCheckPointCallback:
    def __init__(self, mode="max", model_name="model.pt", entire_model=False):
        self.mode, self.model_name, self.entire_model = mode, model_name, entire_model
        self.best, self.epoch = None, 0

    def step(self, monitor, model, epoch):
        if self.best is None or monitor > self.best:
            self.best, self.epoch = monitor, epoch
            torch.save(model if self.entire_model else model.state_dict(), self.model_name)


# ---- src/model/dilated_unet.py (two encoder levels, a dilated bottleneck)
class ResBlock(nn.Module):
    def __init__(self, in_ch, out_ch, dilation=1):
        super().__init__()
        self.conv1 = nn.Conv2d(in_ch, out_ch, 3, padding=dilation, dilation=dilation)
        self.bn1 = nn.BatchNorm2d(out_ch)
        self.conv2 = nn.Conv2d(out_ch, out_ch, 3, padding=dilation, dilation=dilation)
        self.bn2 = nn.BatchNorm2d(out_ch)
        self.skip = nn.Conv2d(in_ch, out_ch, 1)

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + self.skip(x))


class Segmentation_model(nn.Module):
    def __init__(self, filters=32, in_channels=3, n_block=2, bottleneck_depth=4, n_class=3):
        super().__init__()
        self.enc1 = ResBlock(in_channels, filters)
        self.enc2 = ResBlock(filters, filters * 2)
        self.bottleneck = nn.Sequential(*[ResBlock(filters * 2, filters * 2, dilation=2 ** i)
                                          for i in range(bottleneck_depth)])
        self.up = nn.ConvTranspose2d(filters * 2, filters, 2, stride=2)
        self.dec1 = ResBlock(filters * 2, filters)
        self.classifier = nn.Conv2d(filters, n_class, 1)

    def forward(self, x, features_out=True):
        e1 = self.enc1(x)
        e2 = self.enc2(F.max_pool2d(e1, 2))
        btnck = self.bottleneck(e2)
        d1 = self.dec1(torch.cat([self.up(btnck), e1], dim=1))
        output = self.classifier(d1)
        if features_out:
            return output, btnck
        return output


# ---- src/dataset.py
class ImageProcessor:
    @staticmethod
    def split_data(img_path):
        df_train = pd.read_csv(img_path)
        ids_train = df_train['img']
        return ids_train


class DataGenerator:
    def __init__(self, df, root, channel="channel_first", apply_noise=False, phase="train", apply_online_aug=True,
                 batch_size=16, n_samples=-1):
        self._data = df
        self._root = root
        self._len = len(df)
        self._shuffle_indices = np.random.permutation(np.arange(len(df)))
        self._apply_noise = apply_noise
        self._phase = phase
        self._channel = channel
        self._batch_size = batch_size
        self._index = 0
        self._totalcount = 0
        self._n_samples = len(df) if n_samples == -1 else n_samples

    def get_image_paths(self, id):
        return (os.path.join(self._root, 'images', '{}.npy'.format(id)),
                os.path.join(self._root, 'masks', '{}.npy'.format(id)))

    def __iter__(self):
        self._totalcount = 0
        return self

    def __next__(self):
        x_batch, y_batch, indices = [], [], []
        if self._totalcount >= self._n_samples:
            self._totalcount = 0
            raise StopIteration
        for i in range(self._batch_size):
            indices.append(self._index)
            self._index = (self._index + 1) % self._len
            self._totalcount += 1
            if self._totalcount >= self._n_samples:
                break
        ids_train_batch = self._data.iloc[self._shuffle_indices[indices]]
        for _id in ids_train_batch.values:
            img_path, mask_path = self.get_image_paths(id=_id)
            img, mask = np.load(img_path), np.load(mask_path)
            if self._apply_noise:
                img = np.clip(img + np.random.normal(0, 2, img.shape), 0, 255)
            x_batch.append(img)
            y_batch.append(np.expand_dims(mask, axis=-1))
        x_batch = np.array(x_batch, np.float32) / 255.
        if self._channel == "channel_first":
            x_batch = np.moveaxis(x_batch, -1, 1)
        y_batch = np.eye(3, dtype=np.float32)[np.array(y_batch)[..., 0]]
        y_batch = np.moveaxis(y_batch, source=3, destination=1)
        return x_batch, y_batch


# ---- src/trainer.py
class Trainer:
    def __init__(self, train_path, test_path, data_root, batch_size=16, n_epoch=50, unet_model=None,
                 unet_loss=DiceCoefMultilabelLoss(), unet_lr=0.001, apply_scheduler=True, n_samples=2000,
                 unet_model_name='unet_model_checkpoint.pt', channel='channel_first'):
        self.train_path, self.test_path, self.data_root = train_path, test_path, data_root
        self.BATCH_SIZE = batch_size
        self.epochs = n_epoch
        self.n_samples = n_samples
        self.unet_model_name = unet_model_name
        self.channel = channel
        self.unet_model = unet_model
        self.unet_loss = unet_loss
        self.apply_scheduler = apply_scheduler
        self.unet_optim = t.optim.Adam(self.unet_model.parameters(), lr=unet_lr, betas=(0.9, 0.99))

    def get_generators(self, ids_train, ids_valid):
        trainA_generator = DataGenerator(df=ids_train, root=self.data_root, apply_noise=True, phase="train",
                                         batch_size=self.BATCH_SIZE, n_samples=self.n_samples)
        validA_generator = DataGenerator(df=ids_valid, root=self.data_root, apply_noise=False, phase="valid",
                                         batch_size=self.BATCH_SIZE, n_samples=-1)
        return iter(trainA_generator), iter(validA_generator)

    def tocude(self):
        self.unet_model.cuda()
        self.unet_loss.cuda()

    def valid_model(self, data_generator):
        self.unet_model.eval()
        dice_list, loss_list = [], []
        with t.no_grad():
            for x_batch, y_batch in data_generator:
                prediction = self.unet_model.forward(t.tensor(x_batch).cuda(), features_out=False)
                l = self.unet_loss.forward(predict=prediction, target=t.tensor(y_batch).cuda())
                loss_list.append(l.item())
                y_pred = soft_to_hard_pred(prediction.cpu().detach().numpy(), 1)
                dice_list.append(dice_coef_multilabel(y_true=y_batch, y_pred=y_pred))
        return {"dice": np.mean(dice_list), "loss": np.mean(loss_list)}

    def train_epoch(self, trainA_generator):
        unet_loss, unet_dice = [], []
        self.unet_model.train()
        for imgA, maskA in trainA_generator:
            self.unet_optim.zero_grad()
            segmentation, btnck = self.unet_model.forward(t.tensor(imgA).cuda(), features_out=True)
            l_segmentation = self.unet_loss.forward(predict=segmentation, target=t.tensor(maskA).cuda(),
                                                    channel=self.channel)
            l_segmentation.backward()
            self.unet_optim.step()
            y_pred = soft_to_hard_pred(segmentation.cpu().detach().numpy(), 1)
            unet_loss.append(l_segmentation.item())
            unet_dice.append(dice_coef_multilabel(y_true=maskA, y_pred=y_pred))
        return {"unet_loss": np.mean(unet_loss), "unet_dice": np.mean(unet_dice)}

    def train_model(self, comments=''):
        root_directory = os.path.join(self.data_root, 'weights', comments)
        os.makedirs(root_directory, exist_ok=True)
        ids_train = ImageProcessor.split_data(self.train_path)
        ids_valid = ImageProcessor.split_data(self.test_path)
        print("Trainining on {} images and validating on {} images...!!".format(len(ids_train), len(ids_valid)))
        trainA_iterator, validA_iterator = self.get_generators(ids_train, ids_valid)
        self.tocude()
        unet_scheduler = ReduceLROnPlateau(optimizer=self.unet_optim, mode='max', factor=.1, patience=100)
        earlystop = EarlyStoppingCallback(patience=10, mode="max")
        modelcheckpoint_unet = ModelCheckPointCallback(mode="max", model_name=os.path.join(root_directory,
                                                                                           self.unet_model_name))
        for epoch in range(self.epochs):
            output = self.train_epoch(trainA_iterator)
            if self.apply_scheduler:
                unet_scheduler.step(metrics=output["unet_dice"])
            val = self.valid_model(data_generator=validA_iterator)
            print(f"[{epoch + 1}/{self.epochs}] train_loss: {output['unet_loss']:.5f} valid_loss: {val['loss']:.5f} "
                  f"valid_dice: {val['dice']:.5f}")
            modelcheckpoint_unet.step(monitor=val["dice"], model=self.unet_model, epoch=epoch)
            earlystop.step(val["dice"])
            if earlystop.should_stop():
                break
        print("Finish training")


def write_spine_dataset(root, n_train=8, n_valid=4, size=32, seed=0):
    rng = np.random.default_rng(seed)
    os.makedirs(os.path.join(root, 'images'), exist_ok=True)
    os.makedirs(os.path.join(root, 'masks'), exist_ok=True)
    for i in range(n_train + n_valid):
        mask = np.zeros((size, size), dtype=np.uint8)
        for k, y0 in enumerate(range(2, size - 6, 8)):
            mask[y0:y0 + 5, 10:22] = 1          # vertebra
            mask[y0 + 5:y0 + 7, 11:21] = 2      # disc
        img = (mask[..., None] * 80 + rng.normal(40, 10, (size, size, 3))).clip(0, 255).astype(np.uint8)
        np.save(os.path.join(root, 'images', f'{i}.npy'), img)
        np.save(os.path.join(root, 'masks', f'{i}.npy'), mask)
    pd.DataFrame({'img': range(n_train)}).to_csv(os.path.join(root, 'trainA.csv'), index=False)
    pd.DataFrame({'img': range(n_train, n_train + n_valid)}).to_csv(os.path.join(root, 'validA.csv'), index=False)


if __name__ == '__main__':
    parser = argparse.ArgumentParser()
    parser.add_argument("-unetlr", type=float, default=0.0001)
    parser.add_argument("-e", "--epochs", type=int, default=3)
    parser.add_argument("--n_samples", type=int, default=8)
    parser.add_argument("-bs", "--batch_size", type=int, default=4)
    parser.add_argument("-nc", "--n_class", type=int, default=3)
    parser.add_argument("-nf", "--n_filter", type=int, default=8)
    args = parser.parse_args([])

    data_root = tempfile.mkdtemp()
    write_spine_dataset(data_root)
    comments = "Verterbra_disk.unet_lr_{}_{}".format(args.unetlr, args.n_filter)
    unet_model = Segmentation_model(filters=args.n_filter, in_channels=3, n_block=2, bottleneck_depth=2,
                                    n_class=args.n_class)
    train_obj = Trainer(train_path=os.path.join(data_root, 'trainA.csv'),
                        test_path=os.path.join(data_root, 'validA.csv'), data_root=data_root,
                        batch_size=args.batch_size, unet_model=unet_model, unet_loss=DiceCoefMultilabelLoss(),
                        unet_lr=args.unetlr, n_epoch=args.epochs, n_samples=args.n_samples)
    start = datetime.now()
    train_obj.train_model(comments=comments)
    print("time elapsed for training (hh:mm:ss.ms) {}".format(datetime.now() - start))
