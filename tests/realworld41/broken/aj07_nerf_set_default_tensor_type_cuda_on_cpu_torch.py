"""Neural radiance field training on a Blender-style synthetic scene (yenchenlin/nerf-pytorch: run_nerf.py with its config_parser, create_nerf, render / render_rays / raw2outputs and train(); run_nerf_helpers.py with the positional Embedder, the NeRF MLP and get_rays; load_blender.py), nerf-pytorch issue #117: run_nerf.py's main block calls torch.set_default_tensor_type('torch.cuda.FloatTensor') before train(), which a PyTorch build without CUDA (a Mac, a CPU-only machine) rejects before any data or model exists
source: https://github.com/yenchenlin/nerf-pytorch/issues/117
reported-error: TypeError: type torch.cuda.FloatTensor not available. Torch not compiled with CUDA enabled. (python run_nerf.py --config configs/lego.txt on a machine without CUDA)
outcome: TypeError: type torch.cuda.FloatTensor not available. Torch not compiled with CUDA enabled. at line 330
root-cause: line 330
expect: DG002
"""
import argparse
import json
import os
import tempfile
import time

import numpy as np

import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
np.random.seed(0)


# ---- run_nerf_helpers.py
img2mse = lambda x, y: torch.mean((x - y) ** 2)
mse2psnr = lambda x: -10. * torch.log(x) / torch.log(torch.Tensor([10.]))
to8b = lambda x: (255 * np.clip(x, 0, 1)).astype(np.uint8)


class Embedder:
    def __init__(self, **kwargs):
        self.kwargs = kwargs
        self.create_embedding_fn()

    def create_embedding_fn(self):
        embed_fns = []
        d = self.kwargs["input_dims"]
        out_dim = 0
        if self.kwargs["include_input"]:
            embed_fns.append(lambda x: x)
            out_dim += d
        max_freq = self.kwargs["max_freq_log2"]
        N_freqs = self.kwargs["num_freqs"]
        freq_bands = 2. ** torch.linspace(0., max_freq, steps=N_freqs)
        for freq in freq_bands:
            for p_fn in self.kwargs["periodic_fns"]:
                embed_fns.append(lambda x, p_fn=p_fn, freq=freq: p_fn(x * freq))
                out_dim += d
        self.embed_fns = embed_fns
        self.out_dim = out_dim

    def embed(self, inputs):
        return torch.cat([fn(inputs) for fn in self.embed_fns], -1)


def get_embedder(multires, i=0):
    if i == -1:
        return nn.Identity(), 3
    embed_kwargs = {"include_input": True, "input_dims": 3, "max_freq_log2": multires - 1, "num_freqs": multires,
                    "log_sampling": True, "periodic_fns": [torch.sin, torch.cos]}
    embedder_obj = Embedder(**embed_kwargs)
    return (lambda x, eo=embedder_obj: eo.embed(x)), embedder_obj.out_dim


class NeRF(nn.Module):
    def __init__(self, D=8, W=256, input_ch=3, input_ch_views=3, output_ch=4, skips=[4], use_viewdirs=False):
        super(NeRF, self).__init__()
        self.D, self.W = D, W
        self.input_ch, self.input_ch_views = input_ch, input_ch_views
        self.skips = skips
        self.use_viewdirs = use_viewdirs
        self.pts_linears = nn.ModuleList(
            [nn.Linear(input_ch, W)] + [nn.Linear(W, W) if i not in self.skips else nn.Linear(W + input_ch, W)
                                        for i in range(D - 1)])
        self.views_linears = nn.ModuleList([nn.Linear(input_ch_views + W, W // 2)])
        if use_viewdirs:
            self.feature_linear = nn.Linear(W, W)
            self.alpha_linear = nn.Linear(W, 1)
            self.rgb_linear = nn.Linear(W // 2, 3)
        else:
            self.output_linear = nn.Linear(W, output_ch)

    def forward(self, x):
        input_pts, input_views = torch.split(x, [self.input_ch, self.input_ch_views], dim=-1)
        h = input_pts
        for i, l in enumerate(self.pts_linears):
            h = F.relu(self.pts_linears[i](h))
            if i in self.skips:
                h = torch.cat([input_pts, h], -1)
        if self.use_viewdirs:
            alpha = self.alpha_linear(h)
            feature = self.feature_linear(h)
            h = torch.cat([feature, input_views], -1)
            for i, l in enumerate(self.views_linears):
                h = F.relu(self.views_linears[i](h))
            rgb = self.rgb_linear(h)
            return torch.cat([rgb, alpha], -1)
        return self.output_linear(h)


def get_rays(H, W, K, c2w):
    i, j = torch.meshgrid(torch.linspace(0, W - 1, W), torch.linspace(0, H - 1, H), indexing="ij")
    i, j = i.t(), j.t()
    dirs = torch.stack([(i - K[0][2]) / K[0][0], -(j - K[1][2]) / K[1][1], -torch.ones_like(i)], -1)
    rays_d = torch.sum(dirs[..., np.newaxis, :] * c2w[:3, :3], -1)
    rays_o = c2w[:3, -1].expand(rays_d.shape)
    return rays_o, rays_d


# ---- load_blender.py (the images are .npy files here instead of PNGs read by imageio)
def load_blender_data(basedir, half_res=False, testskip=1):
    splits = ["train", "val", "test"]
    metas = {}
    for s in splits:
        with open(os.path.join(basedir, "transforms_{}.json".format(s)), "r") as fp:
            metas[s] = json.load(fp)
    all_imgs, all_poses, counts = [], [], [0]
    for s in splits:
        meta = metas[s]
        skip = 1 if s == "train" or testskip == 0 else testskip
        imgs = [np.load(os.path.join(basedir, frame["file_path"] + ".npy")) for frame in meta["frames"][::skip]]
        poses = [np.array(frame["transform_matrix"]) for frame in meta["frames"][::skip]]
        imgs = (np.array(imgs) / 255.).astype(np.float32)
        poses = np.array(poses).astype(np.float32)
        counts.append(counts[-1] + imgs.shape[0])
        all_imgs.append(imgs)
        all_poses.append(poses)
    i_split = [np.arange(counts[i], counts[i + 1]) for i in range(3)]
    imgs = np.concatenate(all_imgs, 0)
    poses = np.concatenate(all_poses, 0)
    H, W = imgs[0].shape[:2]
    camera_angle_x = float(meta["camera_angle_x"])
    focal = .5 * W / np.tan(.5 * camera_angle_x)
    render_poses = torch.from_numpy(poses[i_split[2]])
    return imgs, poses, render_poses, [H, W, focal], i_split


def make_synthetic_scene(basedir, n_views=(6, 2, 2), size=16):
    rng = np.random.default_rng(0)
    os.makedirs(basedir, exist_ok=True)
    for split, n in zip(("train", "val", "test"), n_views):
        os.makedirs(os.path.join(basedir, split), exist_ok=True)
        frames = []
        for k in range(n):
            angle = 2 * np.pi * k / n
            c2w = [[np.cos(angle), 0, np.sin(angle), 4 * np.sin(angle)], [0, 1, 0, 0],
                   [-np.sin(angle), 0, np.cos(angle), 4 * np.cos(angle)], [0, 0, 0, 1]]
            np.save(os.path.join(basedir, split, "r_%d.npy" % k), rng.integers(0, 255, (size, size, 4), np.uint8))
            frames.append({"file_path": "./{}/r_{}".format(split, k), "transform_matrix": c2w})
        with open(os.path.join(basedir, "transforms_{}.json".format(split)), "w") as fp:
            json.dump({"camera_angle_x": 0.69, "frames": frames}, fp)


# ---- run_nerf.py
def batchify(fn, chunk):
    if chunk is None:
        return fn
    return lambda inputs: torch.cat([fn(inputs[i:i + chunk]) for i in range(0, inputs.shape[0], chunk)], 0)


def run_network(inputs, viewdirs, fn, embed_fn, embeddirs_fn, netchunk=1024 * 64):
    inputs_flat = torch.reshape(inputs, [-1, inputs.shape[-1]])
    embedded = embed_fn(inputs_flat)
    if viewdirs is not None:
        input_dirs = viewdirs[:, None].expand(inputs.shape)
        input_dirs_flat = torch.reshape(input_dirs, [-1, input_dirs.shape[-1]])
        embedded = torch.cat([embedded, embeddirs_fn(input_dirs_flat)], -1)
    outputs_flat = batchify(fn, netchunk)(embedded)
    return torch.reshape(outputs_flat, list(inputs.shape[:-1]) + [outputs_flat.shape[-1]])


def create_nerf(args):
    embed_fn, input_ch = get_embedder(args.multires, args.i_embed)
    input_ch_views = 0
    embeddirs_fn = None
    if args.use_viewdirs:
        embeddirs_fn, input_ch_views = get_embedder(args.multires_views, args.i_embed)
    output_ch = 4
    skips = [4]
    model = NeRF(D=args.netdepth, W=args.netwidth, input_ch=input_ch, output_ch=output_ch, skips=skips,
                 input_ch_views=input_ch_views, use_viewdirs=args.use_viewdirs).to(device)
    grad_vars = list(model.parameters())
    network_query_fn = lambda inputs, viewdirs, network_fn: run_network(
        inputs, viewdirs, network_fn, embed_fn=embed_fn, embeddirs_fn=embeddirs_fn, netchunk=args.netchunk)
    optimizer = torch.optim.Adam(params=grad_vars, lr=args.lrate, betas=(0.9, 0.999))
    render_kwargs_train = {"network_query_fn": network_query_fn, "N_samples": args.N_samples, "network_fn": model,
                           "use_viewdirs": args.use_viewdirs, "white_bkgd": args.white_bkgd,
                           "raw_noise_std": args.raw_noise_std}
    render_kwargs_test = {k: render_kwargs_train[k] for k in render_kwargs_train}
    render_kwargs_test["raw_noise_std"] = 0.
    return render_kwargs_train, render_kwargs_test, 0, grad_vars, optimizer


def raw2outputs(raw, z_vals, rays_d, raw_noise_std=0, white_bkgd=False):
    raw2alpha = lambda raw, dists, act_fn=F.relu: 1. - torch.exp(-act_fn(raw) * dists)
    dists = z_vals[..., 1:] - z_vals[..., :-1]
    dists = torch.cat([dists, torch.Tensor([1e10]).expand(dists[..., :1].shape)], -1)
    dists = dists * torch.norm(rays_d[..., None, :], dim=-1)
    rgb = torch.sigmoid(raw[..., :3])
    noise = 0.
    if raw_noise_std > 0.:
        noise = torch.randn(raw[..., 3].shape) * raw_noise_std
    alpha = raw2alpha(raw[..., 3] + noise, dists)
    weights = alpha * torch.cumprod(torch.cat([torch.ones((alpha.shape[0], 1)), 1. - alpha + 1e-10], -1), -1)[:, :-1]
    rgb_map = torch.sum(weights[..., None] * rgb, -2)
    depth_map = torch.sum(weights * z_vals, -1)
    acc_map = torch.sum(weights, -1)
    if white_bkgd:
        rgb_map = rgb_map + (1. - acc_map[..., None])
    return rgb_map, depth_map, acc_map, weights


def render_rays(ray_batch, network_fn, network_query_fn, N_samples, use_viewdirs=False, white_bkgd=False,
                raw_noise_std=0.):
    N_rays = ray_batch.shape[0]
    rays_o, rays_d = ray_batch[:, 0:3], ray_batch[:, 3:6]
    viewdirs = ray_batch[:, -3:] if ray_batch.shape[-1] > 8 else None
    bounds = torch.reshape(ray_batch[..., 6:8], [-1, 1, 2])
    near, far = bounds[..., 0], bounds[..., 1]
    t_vals = torch.linspace(0., 1., steps=N_samples)
    z_vals = near * (1. - t_vals) + far * t_vals
    z_vals = z_vals.expand([N_rays, N_samples])
    pts = rays_o[..., None, :] + rays_d[..., None, :] * z_vals[..., :, None]
    raw = network_query_fn(pts, viewdirs, network_fn)
    rgb_map, depth_map, acc_map, weights = raw2outputs(raw, z_vals, rays_d, raw_noise_std, white_bkgd)
    return {"rgb_map": rgb_map, "disp_map": 1. / torch.clamp(depth_map, min=1e-10), "acc_map": acc_map}


def render(H, W, K, chunk=1024 * 32, rays=None, near=0., far=1., use_viewdirs=False, **kwargs):
    rays_o, rays_d = rays
    if use_viewdirs:
        viewdirs = rays_d / torch.norm(rays_d, dim=-1, keepdim=True)
        viewdirs = torch.reshape(viewdirs, [-1, 3]).float()
    sh = rays_d.shape
    rays_o = torch.reshape(rays_o, [-1, 3]).float()
    rays_d = torch.reshape(rays_d, [-1, 3]).float()
    near, far = near * torch.ones_like(rays_d[..., :1]), far * torch.ones_like(rays_d[..., :1])
    rays = torch.cat([rays_o, rays_d, near, far], -1)
    if use_viewdirs:
        rays = torch.cat([rays, viewdirs], -1)
    all_ret = {}
    for i in range(0, rays.shape[0], chunk):
        ret = render_rays(rays[i:i + chunk], use_viewdirs=use_viewdirs, **kwargs)
        for k in ret:
            all_ret.setdefault(k, []).append(ret[k])
    return [torch.cat(all_ret[k], 0) for k in ["rgb_map", "disp_map", "acc_map"]]


def config_parser():
    parser = argparse.ArgumentParser()
    parser.add_argument("--expname", type=str, default="blender_paper_lego")
    parser.add_argument("--basedir", type=str, default="./logs/")
    parser.add_argument("--datadir", type=str, default="./data/nerf_synthetic/lego")
    parser.add_argument("--netdepth", type=int, default=8)
    parser.add_argument("--netwidth", type=int, default=256)
    parser.add_argument("--N_rand", type=int, default=32 * 32 * 4)
    parser.add_argument("--lrate", type=float, default=5e-4)
    parser.add_argument("--lrate_decay", type=int, default=250)
    parser.add_argument("--chunk", type=int, default=1024 * 32)
    parser.add_argument("--netchunk", type=int, default=1024 * 64)
    parser.add_argument("--N_samples", type=int, default=64)
    parser.add_argument("--use_viewdirs", action="store_true")
    parser.add_argument("--i_embed", type=int, default=0)
    parser.add_argument("--multires", type=int, default=10)
    parser.add_argument("--multires_views", type=int, default=4)
    parser.add_argument("--raw_noise_std", type=float, default=0.)
    parser.add_argument("--white_bkgd", action="store_true")
    parser.add_argument("--N_iters", type=int, default=200000)
    parser.add_argument("--i_print", type=int, default=100)
    return parser


def train(argv=None):
    parser = config_parser()
    args = parser.parse_args(argv)
    if not os.path.exists(os.path.join(args.datadir, "transforms_train.json")):
        make_synthetic_scene(args.datadir)

    images, poses, render_poses, hwf, i_split = load_blender_data(args.datadir)
    print("Loaded blender", images.shape, render_poses.shape, hwf, args.datadir)
    i_train, i_val, i_test = i_split
    near, far = 2., 6.
    if args.white_bkgd:
        images = images[..., :3] * images[..., -1:] + (1. - images[..., -1:])
    else:
        images = images[..., :3]

    H, W, focal = hwf
    H, W = int(H), int(W)
    K = np.array([[focal, 0, 0.5 * W], [0, focal, 0.5 * H], [0, 0, 1]])

    render_kwargs_train, render_kwargs_test, start, grad_vars, optimizer = create_nerf(args)
    render_kwargs_train.update({"near": near, "far": far})
    images = torch.Tensor(images).to(device)
    poses = torch.Tensor(poses).to(device)

    for i in range(start + 1, args.N_iters + 1):
        time0 = time.time()
        img_i = np.random.choice(i_train)
        target = images[img_i]
        pose = poses[img_i, :3, :4]
        rays_o, rays_d = get_rays(H, W, K, torch.Tensor(pose))
        coords = torch.stack(torch.meshgrid(torch.linspace(0, H - 1, H), torch.linspace(0, W - 1, W),
                                            indexing="ij"), -1)
        coords = torch.reshape(coords, [-1, 2])
        select_inds = np.random.choice(coords.shape[0], size=[min(args.N_rand, coords.shape[0])], replace=False)
        select_coords = coords[select_inds].long()
        rays_o = rays_o[select_coords[:, 0], select_coords[:, 1]]
        rays_d = rays_d[select_coords[:, 0], select_coords[:, 1]]
        target_s = target[select_coords[:, 0], select_coords[:, 1]]

        rgb, disp, acc = render(H, W, K, chunk=args.chunk, rays=(rays_o, rays_d), **render_kwargs_train)
        optimizer.zero_grad()
        img_loss = img2mse(rgb, target_s)
        loss = img_loss
        psnr = mse2psnr(img_loss)
        loss.backward()
        optimizer.step()

        decay_rate = 0.1
        decay_steps = args.lrate_decay * 1000
        new_lrate = args.lrate * (decay_rate ** (i / decay_steps))
        for param_group in optimizer.param_groups:
            param_group["lr"] = new_lrate
        if i % args.i_print == 0:
            print(f"[TRAIN] Iter: {i} Loss: {loss.item()}  PSNR: {psnr.item()}  ({time.time() - time0:.3f}s)")


if __name__ == "__main__":
    torch.set_default_tensor_type("torch.cuda.FloatTensor")  # root-cause  # fails-here

    datadir = os.path.join(tempfile.mkdtemp(), "lego")
    train(["--datadir", datadir, "--N_iters", "20", "--i_print", "10", "--netdepth", "4", "--netwidth", "64",
           "--N_rand", "256", "--N_samples", "16", "--use_viewdirs"])
