"""CRNN text recognition (meijieru/crnn.pytorch train.py, models/crnn.py, dataset.py's lmdbDataset/resizeNormalize/randomSequentialSampler/alignCollate, utils.py's strLabelConverter/averager/loadData; warp-ctc's CTCLoss replaced by torch.nn.CTCLoss over log_softmax): a first run with --cuda on the GPU machine writes expr/netCRNN_<epoch>_<i>.pth with CUDA storages; the fine-tuning run on a CPU-only machine passes it as --pretrained, and train.py's crnn.load_state_dict(torch.load(opt.pretrained)) has no map_location
source: https://github.com/meijieru/crnn.pytorch/blob/3cc7904c5ba20b18fcdc2d02ac2b24a9be9eafaf/train.py
reported-error: (none filed; the GPU run's checkpoint is written as a CUDA run writes it, by patching torch.serialization.location_tag to return 'cuda:0' during torch.save; train.py's module body is wrapped in main(argv) so that both runs can be made from one file)
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 488
root-cause: line 488
expect: DG010
"""
from __future__ import print_function
from __future__ import division

import argparse
import collections.abc
import contextlib
import io
import os
import pickle
import random
import sys
import tempfile

import numpy as np
import torch
import torch.backends.cudnn as cudnn
import torch.nn as nn
import torch.optim as optim
import torch.utils.data
from torch.autograd import Variable
from torch.utils.data import Dataset
from torch.utils.data import sampler

WORKDIR = tempfile.mkdtemp()


# ---- stand-ins for lmdb, PIL.Image and torchvision.transforms.ToTensor (none of them is installed here)
class lmdb:
    """An lmdb environment kept as one pickled dict of bytes (keys and values as the crnn tools write them)."""

    class _Txn:
        def __init__(self, db):
            self.db = db

        def get(self, key):
            return self.db.get(key.encode() if isinstance(key, str) else key)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    class Environment:
        def __init__(self, path):
            with open(os.path.join(path, 'data.pkl'), 'rb') as f:
                self.db = pickle.load(f)

        def begin(self, write=False):
            return lmdb._Txn(self.db)

    @staticmethod
    def open(path, **kwargs):
        return lmdb.Environment(path)


class Image:
    BILINEAR = 2

    def __init__(self, arr):
        self.arr = arr

    @property
    def size(self):
        return self.arr.shape[1], self.arr.shape[0]

    @staticmethod
    def open(buf):
        return Image(np.load(buf))

    def convert(self, mode):
        return Image(self.arr if self.arr.ndim == 2 else self.arr.mean(-1).astype(np.uint8))

    def resize(self, size, interpolation=BILINEAR):
        w, h = size
        rows = np.clip((np.arange(h) + 0.5) * self.arr.shape[0] / h, 0, self.arr.shape[0] - 1).astype(np.int64)
        cols = np.clip((np.arange(w) + 0.5) * self.arr.shape[1] / w, 0, self.arr.shape[1] - 1).astype(np.int64)
        return Image(self.arr[rows][:, cols])


class transforms:
    class ToTensor:
        def __call__(self, pic):
            arr = pic.arr[:, :, None]
            img = torch.from_numpy(np.ascontiguousarray(arr.transpose((2, 0, 1))))
            return img.to(dtype=torch.get_default_dtype()).div(255)


FONT = {c: np.random.RandomState(ord(c)).randint(0, 2, size=(12, 6)).astype(np.uint8) * 255
        for c in '0123456789abcdefghijklmnopqrstuvwxyz'}


def create_dataset(output_path, n, seed):
    """What tool/create_dataset.py writes: num-samples, image-%09d (encoded image), label-%09d."""
    rng = np.random.RandomState(seed)
    db = {}
    for i in range(1, n + 1):
        word = ''.join(rng.choice(list('0123456789abcdefghijklmnopqrstuvwxyz'), size=rng.randint(3, 6)))
        img = np.full((32, 8 * len(word) + 8), 230, dtype=np.uint8)
        for k, c in enumerate(word):
            img[10:22, 4 + 8 * k:10 + 8 * k] = 255 - FONT[c]
        buf = io.BytesIO()
        np.save(buf, img)
        db[('image-%09d' % i).encode()] = buf.getvalue()
        db[('label-%09d' % i).encode()] = word.encode()
    db[b'num-samples'] = str(n).encode()
    os.makedirs(output_path, exist_ok=True)
    with open(os.path.join(output_path, 'data.pkl'), 'wb') as f:
        pickle.dump(db, f)


# ---- dataset.py
class lmdbDataset(Dataset):

    def __init__(self, root=None, transform=None, target_transform=None):
        self.env = lmdb.open(
            root,
            max_readers=1,
            readonly=True,
            lock=False,
            readahead=False,
            meminit=False)

        if not self.env:
            print('cannot creat lmdb from %s' % (root))
            sys.exit(0)

        with self.env.begin(write=False) as txn:
            nSamples = int(txn.get('num-samples'))
            self.nSamples = nSamples

        self.transform = transform
        self.target_transform = target_transform

    def __len__(self):
        return self.nSamples

    def __getitem__(self, index):
        assert index <= len(self), 'index range error'
        index += 1
        with self.env.begin(write=False) as txn:
            img_key = 'image-%09d' % index
            imgbuf = txn.get(img_key)

            buf = io.BytesIO()
            buf.write(imgbuf)
            buf.seek(0)
            try:
                img = Image.open(buf).convert('L')
            except IOError:
                print('Corrupted image for %d' % index)
                return self[index + 1]

            if self.transform is not None:
                img = self.transform(img)

            label_key = 'label-%09d' % index
            label = txn.get(label_key).decode()

            if self.target_transform is not None:
                label = self.target_transform(label)

        return (img, label)


class resizeNormalize(object):

    def __init__(self, size, interpolation=Image.BILINEAR):
        self.size = size
        self.interpolation = interpolation
        self.toTensor = transforms.ToTensor()

    def __call__(self, img):
        img = img.resize(self.size, self.interpolation)
        img = self.toTensor(img)
        img.sub_(0.5).div_(0.5)
        return img


class randomSequentialSampler(sampler.Sampler):

    def __init__(self, data_source, batch_size):
        self.num_samples = len(data_source)
        self.batch_size = batch_size

    def __iter__(self):
        n_batch = len(self) // self.batch_size
        tail = len(self) % self.batch_size
        index = torch.LongTensor(len(self)).fill_(0)
        for i in range(n_batch):
            random_start = random.randint(0, len(self) - self.batch_size)
            batch_index = random_start + torch.arange(0, self.batch_size)
            index[i * self.batch_size:(i + 1) * self.batch_size] = batch_index
        # deal with tail
        if tail:
            random_start = random.randint(0, len(self) - self.batch_size)
            tail_index = random_start + torch.arange(0, tail)
            index[(i + 1) * self.batch_size:] = tail_index

        return iter(index)

    def __len__(self):
        return self.num_samples


class alignCollate(object):

    def __init__(self, imgH=32, imgW=100, keep_ratio=False, min_ratio=1):
        self.imgH = imgH
        self.imgW = imgW
        self.keep_ratio = keep_ratio
        self.min_ratio = min_ratio

    def __call__(self, batch):
        images, labels = zip(*batch)

        imgH = self.imgH
        imgW = self.imgW
        if self.keep_ratio:
            ratios = []
            for image in images:
                w, h = image.size
                ratios.append(w / float(h))
            ratios.sort()
            max_ratio = ratios[-1]
            imgW = int(np.floor(max_ratio * imgH))
            imgW = max(imgH * self.min_ratio, imgW)  # assure imgH >= imgW

        transform = resizeNormalize((imgW, imgH))
        images = [transform(image) for image in images]
        images = torch.cat([t.unsqueeze(0) for t in images], 0)

        return images, labels


# ---- utils.py
class strLabelConverter(object):
    """Convert between str and label.

    NOTE:
        Insert `blank` to the alphabet for CTC.
    """

    def __init__(self, alphabet, ignore_case=True):
        self._ignore_case = ignore_case
        if self._ignore_case:
            alphabet = alphabet.lower()
        self.alphabet = alphabet + '-'  # for `-1` index

        self.dict = {}
        for i, char in enumerate(alphabet):
            # NOTE: 0 is reserved for 'blank' required by wrap_ctc
            self.dict[char] = i + 1

    def encode(self, text):
        if isinstance(text, str):
            text = [
                self.dict[char.lower() if self._ignore_case else char]
                for char in text
            ]
            length = [len(text)]
        elif isinstance(text, collections.abc.Iterable):
            length = [len(s) for s in text]
            text = ''.join(text)
            text, _ = self.encode(text)
        return (torch.IntTensor(text), torch.IntTensor(length))

    def decode(self, t, length, raw=False):
        if length.numel() == 1:
            length = length[0]
            assert t.numel() == length, "text with length: {} does not match declared length: {}".format(t.numel(), length)
            if raw:
                return ''.join([self.alphabet[i - 1] for i in t])
            else:
                char_list = []
                for i in range(length):
                    if t[i] != 0 and (not (i > 0 and t[i - 1] == t[i])):
                        char_list.append(self.alphabet[t[i] - 1])
                return ''.join(char_list)
        else:
            # batch mode
            assert t.numel() == length.sum(), "texts with length: {} does not match declared length: {}".format(t.numel(), length.sum())
            texts = []
            index = 0
            for i in range(length.numel()):
                l = length[i]
                texts.append(
                    self.decode(
                        t[index:index + l], torch.IntTensor([l]), raw=raw))
                index += l
            return texts


class averager(object):
    """Compute average for `torch.Variable` and `torch.Tensor`. """

    def __init__(self):
        self.reset()

    def add(self, v):
        if isinstance(v, Variable):
            count = v.data.numel()
            v = v.data.sum()
        elif isinstance(v, torch.Tensor):
            count = v.numel()
            v = v.sum()

        self.n_count += count
        self.sum += v

    def reset(self):
        self.n_count = 0
        self.sum = 0

    def val(self):
        res = 0
        if self.n_count != 0:
            res = self.sum / float(self.n_count)
        return res


def loadData(v, data):
    with torch.no_grad():  # v.data.resize_ upstream: no longer resizes v itself
        v.resize_(data.size()).copy_(data)


# ---- models/crnn.py
class BidirectionalLSTM(nn.Module):

    def __init__(self, nIn, nHidden, nOut):
        super(BidirectionalLSTM, self).__init__()

        self.rnn = nn.LSTM(nIn, nHidden, bidirectional=True)
        self.embedding = nn.Linear(nHidden * 2, nOut)

    def forward(self, input):
        recurrent, _ = self.rnn(input)
        T, b, h = recurrent.size()
        t_rec = recurrent.view(T * b, h)

        output = self.embedding(t_rec)  # [T * b, nOut]
        output = output.view(T, b, -1)

        return output


class CRNN(nn.Module):

    def __init__(self, imgH, nc, nclass, nh, n_rnn=2, leakyRelu=False):
        super(CRNN, self).__init__()
        assert imgH % 16 == 0, 'imgH has to be a multiple of 16'

        ks = [3, 3, 3, 3, 3, 3, 2]
        ps = [1, 1, 1, 1, 1, 1, 0]
        ss = [1, 1, 1, 1, 1, 1, 1]
        nm = [64, 128, 256, 256, 512, 512, 512]

        cnn = nn.Sequential()

        def convRelu(i, batchNormalization=False):
            nIn = nc if i == 0 else nm[i - 1]
            nOut = nm[i]
            cnn.add_module('conv{0}'.format(i),
                           nn.Conv2d(nIn, nOut, ks[i], ss[i], ps[i]))
            if batchNormalization:
                cnn.add_module('batchnorm{0}'.format(i), nn.BatchNorm2d(nOut))
            if leakyRelu:
                cnn.add_module('relu{0}'.format(i),
                               nn.LeakyReLU(0.2, inplace=True))
            else:
                cnn.add_module('relu{0}'.format(i), nn.ReLU(True))

        convRelu(0)
        cnn.add_module('pooling{0}'.format(0), nn.MaxPool2d(2, 2))  # 64x16x64
        convRelu(1)
        cnn.add_module('pooling{0}'.format(1), nn.MaxPool2d(2, 2))  # 128x8x32
        convRelu(2, True)
        convRelu(3)
        cnn.add_module('pooling{0}'.format(2),
                       nn.MaxPool2d((2, 2), (2, 1), (0, 1)))  # 256x4x16
        convRelu(4, True)
        convRelu(5)
        cnn.add_module('pooling{0}'.format(3),
                       nn.MaxPool2d((2, 2), (2, 1), (0, 1)))  # 512x2x16
        convRelu(6, True)  # 512x1x16

        self.cnn = cnn
        self.rnn = nn.Sequential(
            BidirectionalLSTM(512, nh, nh),
            BidirectionalLSTM(nh, nh, nclass))

    def forward(self, input):
        # conv features
        conv = self.cnn(input)
        b, c, h, w = conv.size()
        assert h == 1, "the height of conv must be 1"
        conv = conv.squeeze(2)
        conv = conv.permute(2, 0, 1)  # [w, b, c]

        # rnn features
        output = self.rnn(conv)

        return output


# ---- train.py
def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument('--trainRoot', required=True, help='path to dataset')
    parser.add_argument('--valRoot', required=True, help='path to dataset')
    parser.add_argument('--workers', type=int, help='number of data loading workers', default=2)
    parser.add_argument('--batchSize', type=int, default=64, help='input batch size')
    parser.add_argument('--imgH', type=int, default=32, help='the height of the input image to network')
    parser.add_argument('--imgW', type=int, default=100, help='the width of the input image to network')
    parser.add_argument('--nh', type=int, default=256, help='size of the lstm hidden state')
    parser.add_argument('--nepoch', type=int, default=25, help='number of epochs to train for')
    parser.add_argument('--cuda', action='store_true', help='enables cuda')
    parser.add_argument('--ngpu', type=int, default=1, help='number of GPUs to use')
    parser.add_argument('--pretrained', default='', help="path to pretrained model (to continue training)")
    parser.add_argument('--alphabet', type=str, default='0123456789abcdefghijklmnopqrstuvwxyz')
    parser.add_argument('--expr_dir', default='expr', help='Where to store samples and models')
    parser.add_argument('--displayInterval', type=int, default=500, help='Interval to be displayed')
    parser.add_argument('--n_test_disp', type=int, default=10, help='Number of samples to display when test')
    parser.add_argument('--valInterval', type=int, default=500, help='Interval to be displayed')
    parser.add_argument('--saveInterval', type=int, default=500, help='Interval to be displayed')
    parser.add_argument('--lr', type=float, default=0.01, help='learning rate for Critic, not used by adadealta')
    parser.add_argument('--beta1', type=float, default=0.5, help='beta1 for adam. default=0.5')
    parser.add_argument('--adam', action='store_true', help='Whether to use adam (default is rmsprop)')
    parser.add_argument('--adadelta', action='store_true', help='Whether to use adadelta (default is rmsprop)')
    parser.add_argument('--keep_ratio', action='store_true', help='whether to keep ratio for image resize')
    parser.add_argument('--manualSeed', type=int, default=1234, help='reproduce experiemnt')
    parser.add_argument('--random_sample', action='store_true', help='whether to sample the dataset with random sampler')
    opt = parser.parse_args(argv)
    print(opt)

    if not os.path.exists(opt.expr_dir):
        os.makedirs(opt.expr_dir)

    random.seed(opt.manualSeed)
    np.random.seed(opt.manualSeed)
    torch.manual_seed(opt.manualSeed)

    cudnn.benchmark = True

    if torch.cuda.is_available() and not opt.cuda:
        print("WARNING: You have a CUDA device, so you should probably run with --cuda")

    train_dataset = lmdbDataset(root=opt.trainRoot)
    assert train_dataset
    if not opt.random_sample:
        sampler = randomSequentialSampler(train_dataset, opt.batchSize)
    else:
        sampler = None
    train_loader = torch.utils.data.DataLoader(
        train_dataset, batch_size=opt.batchSize,
        shuffle=False, sampler=sampler,
        num_workers=int(opt.workers),
        collate_fn=alignCollate(imgH=opt.imgH, imgW=opt.imgW, keep_ratio=opt.keep_ratio))
    test_dataset = lmdbDataset(
        root=opt.valRoot, transform=resizeNormalize((opt.imgW, 32)))

    nclass = len(opt.alphabet) + 1
    nc = 1

    converter = strLabelConverter(opt.alphabet)
    criterion = torch.nn.CTCLoss(reduction='sum', zero_infinity=True)

    # custom weights initialization called on crnn
    def weights_init(m):
        classname = m.__class__.__name__
        if classname.find('Conv') != -1:
            m.weight.data.normal_(0.0, 0.02)
        elif classname.find('BatchNorm') != -1:
            m.weight.data.normal_(1.0, 0.02)
            m.bias.data.fill_(0)

    crnn = CRNN(opt.imgH, nc, nclass, opt.nh)
    crnn.apply(weights_init)
    if opt.pretrained != '':
        print('loading pretrained model from %s' % opt.pretrained)
        crnn.load_state_dict(torch.load(opt.pretrained))  # root-cause  # fails-here

    image = torch.FloatTensor(opt.batchSize, 3, opt.imgH, opt.imgH)
    text = torch.IntTensor(opt.batchSize * 5)
    length = torch.IntTensor(opt.batchSize)

    if opt.cuda:
        crnn.cuda()
        crnn = torch.nn.DataParallel(crnn, device_ids=range(opt.ngpu))
        image = image.cuda()
        criterion = criterion.cuda()

    image = Variable(image)
    text = Variable(text)
    length = Variable(length)

    # loss averager
    loss_avg = averager()

    # setup optimizer
    if opt.adam:
        optimizer = optim.Adam(crnn.parameters(), lr=opt.lr,
                               betas=(opt.beta1, 0.999))
    elif opt.adadelta:
        optimizer = optim.Adadelta(crnn.parameters())
    else:
        optimizer = optim.RMSprop(crnn.parameters(), lr=opt.lr)

    def val(net, dataset, criterion, max_iter=100):
        print('Start val')

        for p in crnn.parameters():
            p.requires_grad = False

        net.eval()
        data_loader = torch.utils.data.DataLoader(
            dataset, shuffle=True, batch_size=opt.batchSize, num_workers=int(opt.workers))
        val_iter = iter(data_loader)

        i = 0
        n_correct = 0
        loss_avg = averager()

        max_iter = min(max_iter, len(data_loader))
        for i in range(max_iter):
            data = next(val_iter)
            i += 1
            cpu_images, cpu_texts = data
            batch_size = cpu_images.size(0)
            loadData(image, cpu_images)
            t, l = converter.encode(cpu_texts)
            loadData(text, t)
            loadData(length, l)

            preds = crnn(image).log_softmax(2)
            preds_size = Variable(torch.IntTensor([preds.size(0)] * batch_size))
            cost = criterion(preds, text, preds_size, length) / batch_size
            loss_avg.add(cost)

            _, preds = preds.max(2)
            preds = preds.transpose(1, 0).contiguous().view(-1)
            sim_preds = converter.decode(preds.data, preds_size.data, raw=False)
            for pred, target in zip(sim_preds, cpu_texts):
                if pred == target.lower():
                    n_correct += 1

        raw_preds = converter.decode(preds.data, preds_size.data, raw=True)[:opt.n_test_disp]
        for raw_pred, pred, gt in zip(raw_preds, sim_preds, cpu_texts):
            print('%-20s => %-20s, gt: %-20s' % (raw_pred, pred, gt))

        accuracy = n_correct / float(max_iter * opt.batchSize)
        print('Test loss: %f, accuray: %f' % (loss_avg.val(), accuracy))

    def trainBatch(net, criterion, optimizer):
        data = next(train_iter)
        cpu_images, cpu_texts = data
        batch_size = cpu_images.size(0)
        loadData(image, cpu_images)
        t, l = converter.encode(cpu_texts)
        loadData(text, t)
        loadData(length, l)

        preds = crnn(image).log_softmax(2)
        preds_size = Variable(torch.IntTensor([preds.size(0)] * batch_size))
        cost = criterion(preds, text, preds_size, length) / batch_size
        crnn.zero_grad()
        cost.backward()
        optimizer.step()
        return cost

    for epoch in range(opt.nepoch):
        train_iter = iter(train_loader)
        i = 0
        while i < len(train_loader):
            for p in crnn.parameters():
                p.requires_grad = True
            crnn.train()

            cost = trainBatch(crnn, criterion, optimizer)
            loss_avg.add(cost)
            i += 1

            if i % opt.displayInterval == 0:
                print('[%d/%d][%d/%d] Loss: %f' %
                      (epoch, opt.nepoch, i, len(train_loader), loss_avg.val()))
                loss_avg.reset()

            if i % opt.valInterval == 0:
                val(crnn, test_dataset, criterion, max_iter=1)

            # do checkpointing
            if i % opt.saveInterval == 0:
                torch.save(
                    crnn.state_dict(), '{0}/netCRNN_{1}_{2}.pth'.format(opt.expr_dir, epoch, i))


@contextlib.contextmanager
def storages_tagged_as_cuda():
    """What torch.save writes on the GPU machine: every storage tagged 'cuda:0'."""
    orig = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        yield
    finally:
        torch.serialization.location_tag = orig


if __name__ == '__main__':
    create_dataset(os.path.join(WORKDIR, 'lmdb_train'), 8, seed=0)
    create_dataset(os.path.join(WORKDIR, 'lmdb_val'), 4, seed=1)
    common = ['--trainRoot', os.path.join(WORKDIR, 'lmdb_train'), '--valRoot', os.path.join(WORKDIR, 'lmdb_val'),
              '--workers', '0', '--batchSize', '4', '--imgW', '48', '--nh', '64', '--nepoch', '1',
              '--displayInterval', '1', '--valInterval', '2', '--saveInterval', '2', '--adam', '--lr', '0.001']

    # 1) the training run on the GPU machine (python train.py ... --cuda): its checkpoints hold CUDA storages
    with storages_tagged_as_cuda():
        main(common + ['--expr_dir', os.path.join(WORKDIR, 'expr_gpu')])

    # 2) fine-tuning from that checkpoint on a CPU-only machine
    main(common + ['--expr_dir', os.path.join(WORKDIR, 'expr_finetune'),
                   '--pretrained', os.path.join(WORKDIR, 'expr_gpu', 'netCRNN_0_2.pth')])
    print('fine-tuning finished')
