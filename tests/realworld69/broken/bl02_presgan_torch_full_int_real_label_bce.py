"""A PresGAN run (adjidieng/PresGANs style: DCGAN generator and discriminator, a learnable per-pixel log_sigma noise scale, the entropy term estimated with HMC samples of the latent posterior) on a small synthetic digit set; train.presgan builds the discriminator target with torch.full((batch_size,), real_label) where real_label = 1 is a Python int, which since PyTorch 1.7 gives an int64 tensor, and nn.BCELoss refuses it on the first real batch
source: https://github.com/adjidieng/PresGANs/pull/2
reported-error: "specify dtype to prevent pytorch incompatibilities": torch.full((batch_size,), real_label, device=device) with real_label = 1 no longer gives a float tensor, so criterion(out_real, label) (BCELoss) fails on recent PyTorch; the PR adds dtype=torch.float32 to the torch.full call of presgan()
outcome: RuntimeError: Found dtype Long but expected Float at line 130
root-cause: line 125
expect: DG007
"""
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

real_label = 1  # root-cause-alt
fake_label = 0
criterion = nn.BCELoss()


class Generator(nn.Module):
    def __init__(self, imgSize, nz, ngf, nc):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 4, 4, 1, 0, bias=False), nn.BatchNorm2d(ngf * 4), nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf * 2), nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, nc, 4, 2, 1, bias=False), nn.Tanh(),
        )

    def forward(self, input):
        return self.main(input)


class Discriminator(nn.Module):
    def __init__(self, imgSize, ndf, nc):
        super().__init__()
        self.main = nn.Sequential(
            nn.Conv2d(nc, ndf, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ndf * 2), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 2, 1, 4, 1, 0, bias=False), nn.Sigmoid(),
        )

    def forward(self, input):
        return self.main(input).view(-1, 1).squeeze(1)


def weights_init(m):
    classname = m.__class__.__name__
    if classname.find('Conv') != -1:
        m.weight.data.normal_(0.0, 0.02)
    elif classname.find('BatchNorm') != -1:
        m.weight.data.normal_(1.0, 0.02)
        m.bias.data.fill_(0)


def _helper(netG, x_tilde, eps, sigma):
    eps = eps.clone().detach().requires_grad_(True)
    G_eps = netG(eps)
    bsz = eps.size(0)
    log_prob_eps = (eps ** 2).view(bsz, -1).sum(1).view(-1, 1)
    log_prob_x = ((x_tilde - G_eps) ** 2 / sigma ** 2).view(bsz, -1)
    log_prob_x = torch.sum(log_prob_x, dim=1).view(-1, 1)
    logjoint_vect = (-0.5 * (log_prob_eps + log_prob_x)).squeeze()
    logjoint = torch.sum(logjoint_vect)
    grad_logjoint, = torch.autograd.grad(logjoint, eps)
    return logjoint_vect.detach(), logjoint.detach(), grad_logjoint


def get_samples(netG, x_tilde, eps_init, sigma, burn_in, num_samples_posterior, leapfrog_steps, stepsize,
                flag_adapt, hmc_learning_rate, hmc_opt_accept):
    bsz, eps_dim = eps_init.size(0), eps_init.size(1)
    n_steps = burn_in + num_samples_posterior
    acceptHist = torch.zeros(bsz, n_steps)
    samples = torch.zeros(bsz * num_samples_posterior, eps_dim)
    current_eps = eps_init
    cnt = 0
    for i in range(n_steps):
        eps = current_eps
        p = torch.randn_like(current_eps)
        current_p = p
        logjoint_vect, _, grad_logjoint = _helper(netG, x_tilde, current_eps, sigma)
        current_U = -logjoint_vect.view(-1, 1)
        p = p + stepsize * grad_logjoint / 2.0
        for j in range(leapfrog_steps):
            eps = eps + stepsize * p
            if j < leapfrog_steps - 1:
                _, _, grad_logjoint = _helper(netG, x_tilde, eps, sigma)
                p = p + stepsize * grad_logjoint
        logjoint_vect, _, grad_logjoint = _helper(netG, x_tilde, eps, sigma)
        proposed_U = -logjoint_vect.view(-1, 1)
        p = -(p + stepsize * grad_logjoint / 2.0)
        current_K = 0.5 * (current_p ** 2).view(bsz, -1).sum(dim=1).view(-1, 1)
        proposed_K = 0.5 * (p ** 2).view(bsz, -1).sum(dim=1).view(-1, 1)
        unif = torch.rand(bsz).view(-1, 1)
        accept = unif.lt(torch.exp(current_U - proposed_U + current_K - proposed_K)).float().squeeze()
        acceptHist[:, i] = accept
        ind = accept.nonzero().squeeze(-1)
        current_eps = current_eps.clone()
        current_eps[ind] = eps[ind].detach()
        if i < burn_in and flag_adapt == 1:
            stepsize = stepsize + hmc_learning_rate * (accept.mean() - hmc_opt_accept) * stepsize
        else:
            samples[cnt * bsz:(cnt + 1) * bsz, :] = current_eps.view(bsz, -1)
            cnt += 1
    return samples, acceptHist.mean(dim=1), stepsize


def presgan(dat, netG, netD, log_sigma, args):
    device = args["device"]
    X_training = dat['X_train'].to(device)
    optimizerD = optim.Adam(netD.parameters(), lr=args["lrD"], betas=(args["beta1"], 0.999))
    optimizerG = optim.Adam(netG.parameters(), lr=args["lrG"], betas=(args["beta1"], 0.999))
    sigma_optimizer = optim.Adam([log_sigma], lr=args["sigma_lr"], betas=(args["beta1"], 0.999))
    stepsize = args["stepsize_num"] / args["nz"]
    bsz = args["batchSize"]
    for epoch in range(1, args["epochs"] + 1):
        for i in range(0, len(X_training), bsz):
            sigma_x = F.softplus(log_sigma).view(1, 1, args["imageSize"], args["imageSize"])

            netD.zero_grad()
            stop = min(bsz, len(X_training[i:]))
            real_cpu = X_training[i:i + stop].to(device)

            batch_size = real_cpu.size(0)
            label = torch.full((batch_size,), real_label, device=device)  # root-cause

            noise_eta = torch.randn_like(real_cpu)
            noised_data = real_cpu + sigma_x.detach() * noise_eta
            out_real = netD(noised_data)
            errD_real = criterion(out_real, label)  # fails-here
            errD_real.backward()

            noise = torch.randn(batch_size, args["nz"], 1, 1, device=device)
            mu_fake = netG(noise)
            fake = mu_fake + sigma_x * noise_eta
            label.fill_(fake_label)
            out_fake = netD(fake.detach())
            errD_fake = criterion(out_fake, label)
            errD_fake.backward()
            errD = errD_real + errD_fake
            optimizerD.step()

            netG.zero_grad()
            sigma_optimizer.zero_grad()
            label.fill_(real_label)
            gen_input = torch.randn(batch_size, args["nz"], 1, 1, device=device)
            out = netG(gen_input)
            noise_eta = torch.randn_like(out)
            g_fake_data = out + noise_eta * sigma_x
            dg_fake_decision = netD(g_fake_data)
            g_error_gan = criterion(dg_fake_decision, label)

            hmc_samples, acceptRate, stepsize = get_samples(
                netG, g_fake_data.detach(), gen_input.clone(), sigma_x.detach(),
                args["burn_in"], args["num_samples_posterior"], args["leapfrog_steps"], stepsize,
                args["flag_adapt"], args["hmc_learning_rate"], args["hmc_opt_accept"])
            n, d = hmc_samples.size()
            mean_output = netG(hmc_samples.view(n, d, 1, 1).to(device))
            mean_output_summed = torch.zeros_like(g_fake_data)
            for cnt in range(args["num_samples_posterior"]):
                mean_output_summed = mean_output_summed + mean_output[cnt * batch_size:(cnt + 1) * batch_size]
            mean_output_summed = mean_output_summed / args["num_samples_posterior"]
            c = ((g_fake_data - mean_output_summed) / sigma_x ** 2).detach()
            g_error_entropy = torch.mul(c, out + sigma_x * noise_eta).mean(0).sum()
            g_error = g_error_gan - args["lambda_"] * g_error_entropy
            g_error.backward()
            optimizerG.step()
            sigma_optimizer.step()
        print('Epoch [%d/%d] Loss_D: %.4f Loss_G: %.4f sigma min %.4f max %.4f accept %.2f'
              % (epoch, args["epochs"], errD.item(), g_error_gan.item(), sigma_x.min().item(),
                 sigma_x.max().item(), acceptRate.mean().item()))


def load_data(n=96, size=16):
    """Stand-in for data.load_data('mnist'): 1-channel strokes scaled to [-1, 1], already a float32 tensor."""
    rng = np.random.default_rng(2019)
    yy, xx = np.mgrid[:size, :size]
    imgs = []
    for _ in range(n):
        a, b = rng.uniform(-1, 1, 2)
        imgs.append((np.abs(a * (xx - size / 2) + b * (yy - size / 2)) < 1.5).astype(np.float32))
    X = torch.from_numpy(np.stack(imgs)[:, None]) * 2 - 1
    return {'X_train': X, 'nc': 1}


if __name__ == "__main__":
    args = {"imageSize": 16, "nz": 16, "ngf": 16, "ndf": 16, "batchSize": 32, "epochs": 2, "lrD": 2e-4, "lrG": 2e-4,
            "beta1": 0.5, "sigma_lr": 2e-4, "lambda_": 0.01, "logsigma_init": -1.0, "num_samples_posterior": 2,
            "burn_in": 2, "leapfrog_steps": 5, "flag_adapt": 1, "hmc_learning_rate": 0.02, "hmc_opt_accept": 0.67,
            "stepsize_num": 1.0, "device": torch.device("cpu")}
    np.random.seed(2019)
    torch.manual_seed(2019)
    dat = load_data(size=args["imageSize"])
    netG = Generator(args["imageSize"], args["nz"], args["ngf"], dat['nc'])
    log_sigma = torch.tensor([args["logsigma_init"]] * (args["imageSize"] * args["imageSize"]), requires_grad=True)
    netD = Discriminator(args["imageSize"], args["ndf"], dat['nc'])
    netG.apply(weights_init)
    netD.apply(weights_init)
    presgan(dat, netG, netD, log_sigma, args)
