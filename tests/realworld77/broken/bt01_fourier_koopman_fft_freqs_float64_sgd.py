"""The from_fourier_to_koopman README example (re-typed `fourier` class): the signal is cast to float32 as the README does, the FFT initial guess of the frequencies is float64 (np.fft.fftfreq), and `sgd` turns both into torch tensors as they are, so the pseudo-inverse of the float64 Fourier design matrix is multiplied with the float32 signal
source: https://github.com/helange23/from_fourier_to_koopman/issues/4
reported-error: "I had to manually cast the types of arrays in the fourier method to be torch.float when running the short example (lines 110 and 111 in fourier.py) ... I also think just removing the cast to a float32 in the example would fix things"
outcome: RuntimeError: expected m1 and m2 to have the same dtype, but got: double != float at line 52
root-cause: line 45
expect: DG004
"""
import numpy as np
import torch


class fourier:
    """Re-typed fourier_koopman/fourier.py (HEAD 8e54c9d): FFT initial guess in NumPy, then SGD on the frequencies."""

    def __init__(self, num_freqs, device="cpu"):
        self.num_freqs = num_freqs
        self.device = device

    def fft(self, xt):
        k = self.num_freqs
        self.freqs = []
        for i in range(k):
            N = len(xt)
            if len(self.freqs) == 0:
                residual = xt
            else:
                t = np.expand_dims(np.arange(N) + 1, -1)
                freqs = np.array(self.freqs)
                Omega = np.concatenate([np.cos(t * 2 * np.pi * freqs), np.sin(t * 2 * np.pi * freqs)], -1)
                self.A = np.dot(np.linalg.pinv(Omega), xt)
                pred = np.dot(Omega, self.A)
                residual = pred - xt
            ffts = 0
            for j in range(xt.shape[1]):
                ffts += np.abs(np.fft.fft(residual[:, j])[: N // 2])
            w = np.fft.fftfreq(N, 1)[: N // 2]
            idxs = np.argmax(ffts)
            self.freqs.append(w[idxs])
            t = np.expand_dims(np.arange(N) + 1, -1)
            Omega = np.concatenate([np.cos(t * 2 * np.pi * self.freqs), np.sin(t * 2 * np.pi * self.freqs)], -1)
            self.A = np.dot(np.linalg.pinv(Omega), xt)

    def sgd(self, xt, iterations=1000, learning_rate=3e-9, verbose=False):
        A = torch.tensor(self.A, requires_grad=False, device=self.device)
        freqs = torch.tensor(self.freqs, requires_grad=True, device=self.device)  # root-cause
        xt = torch.tensor(xt, requires_grad=False, device=self.device)  # root-cause-alt
        o2 = torch.optim.SGD([freqs], lr=learning_rate)
        t = torch.unsqueeze(torch.arange(len(xt), dtype=torch.get_default_dtype(), device=self.device) + 1, -1)
        loss = 0
        for i in range(iterations):
            Omega = torch.cat([torch.cos(t * 2 * np.pi * freqs), torch.sin(t * 2 * np.pi * freqs)], -1)
            A = torch.matmul(torch.pinverse(Omega.data), xt)  # fails-here
            xhat = torch.matmul(Omega, A)
            loss = torch.mean((xhat - xt) ** 2)
            o2.zero_grad()
            loss.backward()
            o2.step()
            loss = loss.cpu().detach().numpy()
            if verbose:
                print(loss)
        self.A = A.cpu().detach().numpy()
        self.freqs = freqs.cpu().detach().numpy()

    def fit(self, xt, learning_rate=1e-5, iterations=1000, verbose=False):
        self.fft(xt)
        self.sgd(xt, iterations=iterations, learning_rate=learning_rate / xt.shape[0], verbose=verbose)

    def predict(self, T):
        t = np.expand_dims(np.arange(T) + 1, -1)
        Omega = np.concatenate([np.cos(t * 2 * np.pi * self.freqs), np.sin(t * 2 * np.pi * self.freqs)], -1)
        return np.dot(Omega, self.A)


# README "How to use Fourier" (5000 samples, trained on the first 3500; fewer SGD iterations here)
x = (np.sin([2 * np.pi / 24 * np.arange(5000)]) + np.sin([2 * np.pi / 33 * np.arange(5000)])).T
x = x.astype(np.float32)

f = fourier(num_freqs=2)
f.fit(x[:3500], iterations=50)

xhat = f.predict(5000)
print("forecast error on the last 1500 steps:", float(np.mean((xhat[3500:] - x[3500:]) ** 2)))
print("periods found:", 1.0 / f.freqs)
