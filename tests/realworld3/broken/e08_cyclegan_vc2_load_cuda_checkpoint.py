"""CycleGAN-VC2: resuming from a checkpoint saved on GPU with torch.load(PATH) and no map_location
source: https://github.com/jackaduma/CycleGAN-VC2/issues/10
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False.
outcome: cuda-only: a checkpoint saved on a GPU machine and resumed on a CPU-only one raises RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False at line 46; on CPU: ok (saved and loaded on the same CPU)
root-cause: line 46
expect: DG010
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn


class Generator(nn.Module):
    def __init__(self):
        super(Generator, self).__init__()
        self.conv1 = nn.Conv1d(24, 32, kernel_size=5, padding=2)
        self.conv2 = nn.Conv1d(32, 24, kernel_size=5, padding=2)

    def forward(self, x):
        return self.conv2(torch.relu(self.conv1(x)))


class CycleGANTraining(object):
    def __init__(self, model_checkpoint, restart_training_at=None):
        self.device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
        self.generator_A2B = Generator().to(self.device)
        self.generator_B2A = Generator().to(self.device)
        self.generator_optimizer = torch.optim.Adam(
            list(self.generator_A2B.parameters()) + list(self.generator_B2A.parameters()), lr=2e-4, betas=(0.5, 0.999))
        self.modelCheckpoint = model_checkpoint
        if restart_training_at is not None:
            self.start_epoch = self.loadModel(restart_training_at)
        else:
            self.start_epoch = 0

    def savePickle(self, epoch, PATH):
        torch.save({'epoch': epoch,
                    'model_genA2B_state_dict': self.generator_A2B.state_dict(),
                    'model_genB2A_state_dict': self.generator_B2A.state_dict(),
                    'generator_optimizer': self.generator_optimizer.state_dict()}, PATH)

    def loadModel(self, PATH):
        checkPoint = torch.load(PATH)  # root-cause
        self.generator_A2B.load_state_dict(state_dict=checkPoint['model_genA2B_state_dict'])
        self.generator_B2A.load_state_dict(state_dict=checkPoint['model_genB2A_state_dict'])
        self.generator_optimizer.load_state_dict(state_dict=checkPoint['generator_optimizer'])
        return int(checkPoint['epoch']) + 1

    def train(self, epochs):
        for epoch in range(self.start_epoch, self.start_epoch + epochs):
            real_A = torch.randn(4, 24, 32, device=self.device)
            cycle_A = self.generator_B2A(self.generator_A2B(real_A))
            loss = torch.mean(torch.abs(real_A - cycle_A))
            self.generator_optimizer.zero_grad()
            loss.backward()
            self.generator_optimizer.step()
            print('epoch', epoch, 'cycle loss', loss.item())
        self.savePickle(epoch, os.path.join(self.modelCheckpoint, '_CycleGAN_CheckPoint'))


if __name__ == '__main__':
    parser = argparse.ArgumentParser(description="Train CycleGAN using source dataset and target dataset")
    parser.add_argument('--model_checkpoint', default=tempfile.mkdtemp())
    parser.add_argument('--resume_training_at', default=None)
    argv = parser.parse_args([])
    CycleGANTraining(argv.model_checkpoint).train(2)
    resume = os.path.join(argv.model_checkpoint, '_CycleGAN_CheckPoint')
    CycleGANTraining(argv.model_checkpoint, restart_training_at=resume).train(1)
