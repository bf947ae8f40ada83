"""SLAYER-style spiking layer test: the spike-response kernel is built when the layer is created, and only afterwards the test's precision setup switches the default dtype to float64, so the spike trains are double
source: https://github.com/bamsumit/slayerPytorch/issues/17
reported-error: RuntimeError: expected scalar type Float but found Double
outcome: RuntimeError: expected scalar type Double but found Float at line 42
root-cause: line 47
expect: DG001
"""
import math

import torch
import torch.nn.functional as F

netParams = {
    "simulation": {"Ts": 1.0, "tSample": 50},
    "neuron": {"type": "SRMALPHA", "theta": 10, "tauSr": 1.0, "tauRef": 1.0, "scaleRef": 2},
    "training": {"precision": "double"},
}


class spikeLayer(torch.nn.Module):
    def __init__(self, neuronDesc, simulationDesc):
        super().__init__()
        self.neuron = neuronDesc
        self.simulation = simulationDesc
        self.register_buffer("srmKernel", self._calculateSrmKernel())

    def _calculateSrmKernel(self):
        tau, Ts = self.neuron["tauSr"], self.simulation["Ts"]
        kernel = []
        for i in range(int(self.simulation["tSample"] / Ts)):
            t = i * Ts
            value = t / tau * math.exp(1 - t / tau)
            if abs(value) < 1e-4 and t > tau:
                break
            kernel.append(value)
        return torch.tensor(kernel).flip(0).reshape(1, 1, -1)

    def psp(self, spike):
        # spike: (batch, neurons, time) -> causal convolution with the SRM kernel
        n = spike.shape[1]
        padded = F.pad(spike.reshape(-1, 1, spike.shape[-1]), (self.srmKernel.shape[-1] - 1, 0))
        return F.conv1d(padded, self.srmKernel).reshape(-1, n, spike.shape[-1])  # fails-here


def configure_precision(params):
    if params["training"]["precision"] == "double":
        torch.set_default_dtype(torch.float64)  # root-cause


slayer = spikeLayer(netParams["neuron"], netParams["simulation"])
configure_precision(netParams)

Ns, Nt = 4, int(netParams["simulation"]["tSample"] / netParams["simulation"]["Ts"])
spikeIn = torch.zeros((2, Ns, Nt))
spikeIn[:, :, ::7] = 1 / netParams["simulation"]["Ts"]
pspGT = slayer.psp(spikeIn)
print("psp max", float(pspGT.max()))
