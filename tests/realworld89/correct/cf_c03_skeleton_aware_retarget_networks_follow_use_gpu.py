"""The Skeleton-Aware-Networks retargeting inference of cf03 with the networks following the same --use_gpu flag as the data: Encoder, StaticEncoder and Decoder end their __init__ with self.to(args.cuda_device if args.use_gpu else "cpu"), so with --use_gpu 0 the offsets, the normalised motions and every network stay on the CPU and A's motions are decoded on B's skeleton
source: https://github.com/ANYMS-A/Skeleton_Aware_Networks_for_Deep_Motion_Retargeting/issues/1
reported-error: (none; the fixed situation of cf03)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import zlib

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
rng = np.random.default_rng(0)

# stand-in for the reporter's GPU: "meta" plays the accelerator where no CUDA device is present
DEFAULT_CUDA_DEVICE = "cuda:0" if torch.cuda.is_available() else "meta"


# ---- option_parser.py ------------------------------------------------------------------------------------------
def get_parser():
    parser = argparse.ArgumentParser()
    parser.add_argument("--character_A", type=str, default="Aj")
    parser.add_argument("--character_B", type=str, default="BigVegas")
    parser.add_argument("--is_train", type=int, default=1)
    parser.add_argument("--batch_size", type=int, default=4)
    parser.add_argument("--cuda_device", type=str, default=DEFAULT_CUDA_DEVICE, help="cuda device number, eg:[cuda:0]")
    parser.add_argument("--use_gpu", type=int, default=1, help="whether use GPU acceleration")
    parser.add_argument("--dynamic_kernel_size", type=int, default=15)
    parser.add_argument("--static_kernel_size", type=int, default=1)
    parser.add_argument("--neighbor_dist_thresh", type=int, default=2)
    return parser


def get_args(argv):
    return get_parser().parse_args(argv)


# ---- datasets/bvh_parser.py stand-in: a 9-joint simplified skeleton (root + three chains) ------------------------
TOPOLOGY = np.array([0, 0, 1, 2, 0, 4, 5, 0, 7])  # parent index of every joint
EE_ID = [3, 6, 8]


class BvhData:
    def __init__(self, character_name, motion_file_name, frames=64):
        seed = zlib.crc32(f"{character_name}/{motion_file_name}".encode())
        r = np.random.default_rng(seed)
        self.topology = TOPOLOGY
        self.edges = [[int(p), i] for i, p in enumerate(TOPOLOGY) if i]
        self.names = [f"{character_name}_joint{i}" for i in range(len(TOPOLOGY))]
        scale = 1.0 if character_name == "Aj" else 1.3
        self.offset = r.normal(0, 10 * scale, (len(TOPOLOGY), 3))
        q = r.normal(0, 1, (frames, len(TOPOLOGY) - 1, 4))
        self.rotation = q / np.linalg.norm(q, axis=-1, keepdims=True)
        self.root_position = np.cumsum(r.normal(0, 1, (frames, 1, 3)), axis=0)

    def get_ee_id(self):
        return EE_ID

    def get_rotation(self):
        return self.rotation

    def get_root_position(self):
        return self.root_position


# ---- datasets/motion_dataset.py ------------------------------------------------------------------------------------
class MotionDataset(Dataset):
    def __init__(self, args):
        if not args.is_train and args.batch_size != 1:
            raise Exception("If not in train mode, batch_size must be 1")
        self.args = args
        self.character_a_name, self.character_b_name = args.character_A, args.character_B
        self.bvh_file_list = [f"motion_{i:02d}" for i in range(4)]
        self.topologies, self.edges, self.names, self.offsets, self.ee_ids = [], [], [], [], []
        self.rot_means, self.rot_vars, self.pos_means, self.pos_vars = [], [], [], []
        for character_name in [self.character_a_name, self.character_b_name]:
            std_bvh_data = BvhData(character_name, motion_file_name=character_name)
            self.topologies.append(std_bvh_data.topology)
            self.edges.append(std_bvh_data.edges)
            self.ee_ids.append(std_bvh_data.get_ee_id())
            self.names.append(std_bvh_data.names)
            offset = torch.from_numpy(std_bvh_data.offset).float()
            offset = offset.to(self.args.cuda_device) if self.args.use_gpu else offset
            self.offsets.append(offset)
            motions = [BvhData(character_name, name) for name in self.bvh_file_list]
            rot = np.concatenate([m.get_rotation() for m in motions])
            pos = np.concatenate([m.get_root_position() for m in motions])
            self.rot_means.append(rot.mean(0, keepdims=True))
            self.rot_vars.append(rot.std(0, keepdims=True) + 1e-6)
            self.pos_means.append(pos.mean(0, keepdims=True))
            self.pos_vars.append(pos.std(0, keepdims=True) + 1e-6)

    def __len__(self):
        return len(self.bvh_file_list)

    def __getitem__(self, idx):
        bvh_name = self.bvh_file_list[idx]
        character_list = []
        for idx, character_name in enumerate([self.character_a_name, self.character_b_name]):
            bvh_data = BvhData(character_name, motion_file_name=bvh_name)
            rotation, root_position = self._normalize(bvh_data.get_rotation(), bvh_data.get_root_position(), idx)
            concat_tensor = self._concat_together(rotation, root_position)
            character_list.append(concat_tensor.permute(2, 1, 0))  # [4, simple_joint_num, frame]
        return character_list[0].float().detach(), character_list[1].float().detach()

    def _normalize(self, rot, root_pos, character_idx):
        rot, root_pos = self._convert_to_tensor(rot), self._convert_to_tensor(root_pos)
        norm_rot = (rot - self._convert_to_tensor(self.rot_means[character_idx])) / \
            self._convert_to_tensor(self.rot_vars[character_idx])
        norm_root_pos = (root_pos - self._convert_to_tensor(self.pos_means[character_idx])) / \
            self._convert_to_tensor(self.pos_vars[character_idx])
        return norm_rot, norm_root_pos

    def de_normalize(self, raw, character_idx):
        device = raw.device
        rot_mean = torch.from_numpy(self.rot_means[character_idx]).float().permute(0, 2, 1).unsqueeze(3).to(device)
        rot_var = torch.from_numpy(self.rot_vars[character_idx]).float().permute(0, 2, 1).unsqueeze(3).to(device)
        pos_mean = torch.from_numpy(self.pos_means[character_idx]).float().permute(0, 2, 1).unsqueeze(3).to(device)
        pos_var = torch.from_numpy(self.pos_vars[character_idx]).float().permute(0, 2, 1).unsqueeze(3).to(device)
        rot_part = raw[:, :, 1:, :] * rot_var + rot_mean
        pos_part = raw[:, 0:-1, 0:1, :] * pos_var + pos_mean
        return rot_part, pos_part

    def _concat_together(self, rot, root_pos):
        frame_num = root_pos.size(0)
        pad_root_pos = torch.zeros([frame_num, 1, 4], dtype=torch.float)
        pad_root_pos[:, :, 0:3] = root_pos
        return torch.cat([pad_root_pos, rot], dim=1)

    def _convert_to_tensor(self, np_array):
        result = torch.from_numpy(np_array).to(torch.float)
        result = result.to(self.args.cuda_device) if self.args.use_gpu else result
        return result


# ---- model/skeleton.py ----------------------------------------------------------------------------------------------
def find_neighbor(topology, dist):
    n = len(topology)
    adj = np.eye(n, dtype=int)
    for i, p in enumerate(topology):
        if i:
            adj[i, p] = adj[p, i] = 1
    reach = np.linalg.matrix_power(adj, dist) > 0
    return [list(np.nonzero(reach[i])[0]) for i in range(n)]


def find_pool_seq(topology):
    children = {i: [j for j, p in enumerate(topology) if j and p == i] for i in range(len(topology))}
    seqs = []
    for start in children[0]:
        seq, j = [start], start
        while len(children[j]) == 1:
            j = children[j][0]
            seq.append(j)
        seqs.append(seq)
    return seqs


class SkeletonConvolution(nn.Module):
    def __init__(self, in_channels, out_channels, k_size, stride, pad_size, topology, neighbor_dist, ee_id):
        super().__init__()
        self.neighbor_list = find_neighbor(topology, neighbor_dist)
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=k_size, stride=stride, padding=pad_size)

    def forward(self, x):
        result_list = []
        for neighbors in self.neighbor_list:
            binary_mask = torch.zeros_like(x, dtype=torch.float)
            binary_mask[:, :, neighbors, :] = 1
            result_list.append(self.conv(x * binary_mask))
        return torch.cat(result_list, dim=2)


class SkeletonPool(nn.Module):
    def __init__(self, topology, ee_id, layer_idx):
        super().__init__()
        self.merge_pairs = []
        self.new_topology = [0]
        for seq in find_pool_seq(topology):
            seq = list(seq)
            first = True
            if len(seq) % 2 != 0:
                self.merge_pairs.append([seq.pop(0)])
                self.new_topology.append(0)
                first = False
            for i in range(0, len(seq), 2):
                self.merge_pairs.append(seq[i:i + 2])
                self.new_topology.append(0 if first else len(self.new_topology) - 1)
                first = False
        self.new_topology = np.array(self.new_topology)
        self.new_ee_id = [i for i, p in enumerate(self.new_topology) if i and i not in set(self.new_topology[1:])]
        self.merge_nums = [len(each) for each in self.merge_pairs]

    def forward(self, x):
        result_list = [x[:, :, 0:1, :]]
        for merge_pair in self.merge_pairs:
            result_list.append(x[:, :, merge_pair, :].mean(dim=2, keepdim=True))
        return torch.cat(result_list, dim=2)


class SkeletonUnPool(nn.Module):
    def __init__(self, un_pool_expand_nums):
        super().__init__()
        self.un_pool_expand_nums = un_pool_expand_nums

    def forward(self, x):
        result_list = [x[:, :, 0:1, :]]
        for i, expand_num in enumerate(self.un_pool_expand_nums, start=1):
            result_list.append(x[:, :, i:i + 1, :].repeat(1, 1, expand_num, 1))
        return torch.cat(result_list, dim=2)


# ---- model/enc_and_dec.py -------------------------------------------------------------------------------------------
class EncBasicBlock(nn.Module):
    def __init__(self, args, in_channel, out_channel, topology, ee_id, layer_idx, dynamic=True):
        super().__init__()
        joint_num = len(topology.tolist())
        kernel_size = (joint_num, args.dynamic_kernel_size) if dynamic else (joint_num, args.static_kernel_size)
        hidden_channel = out_channel // 2
        self.conv1by1 = nn.Conv2d(in_channels=in_channel, out_channels=out_channel, kernel_size=1)
        self.conv1 = SkeletonConvolution(in_channel, hidden_channel, kernel_size, 1, (0, kernel_size[1] // 2),
                                         topology, args.neighbor_dist_thresh, ee_id)
        self.bn1 = nn.BatchNorm2d(num_features=hidden_channel)
        self.lkrelu1 = nn.LeakyReLU(inplace=True)
        self.conv2 = SkeletonConvolution(hidden_channel, out_channel, kernel_size, 1, (0, kernel_size[1] // 2),
                                         topology, args.neighbor_dist_thresh, ee_id)
        self.bn2 = nn.BatchNorm2d(num_features=out_channel)
        self.lkrelu2 = nn.LeakyReLU(inplace=True)
        self.pool = SkeletonPool(topology=topology, ee_id=ee_id, layer_idx=layer_idx)
        self.new_topology = self.pool.new_topology
        self.new_ee_id = self.pool.new_ee_id
        self.expand_num = self.pool.merge_nums

    def forward(self, x):
        identity = self.conv1by1(x)
        out = self.conv1(x)
        out = self.bn1(out)
        out = self.lkrelu1(out)
        out = self.conv2(out)
        out = self.bn2(out)
        out += identity
        out = self.lkrelu2(out)
        out = self.pool(out)
        return out


def init_weights(module):
    for m in module.modules():
        if isinstance(m, nn.Conv2d):
            nn.init.xavier_normal_(m.weight)
            m.bias.data.fill_(0.01)


class Encoder(nn.Module):
    def __init__(self, args, init_topology, init_ee_id):
        super().__init__()
        self.topologies = [init_topology]
        self.ee_id_list = [init_ee_id]
        self.expand_num_list = []
        self.enc_layer1 = EncBasicBlock(args, 7, 32, self.topologies[0], self.ee_id_list[0], layer_idx=1)
        self.topologies.append(self.enc_layer1.new_topology)
        self.ee_id_list.append(self.enc_layer1.new_ee_id)
        self.expand_num_list.append(self.enc_layer1.expand_num)
        self.enc_layer2 = EncBasicBlock(args, 64, 128, self.topologies[1], self.ee_id_list[1], layer_idx=2)
        self.expand_num_list.append(self.enc_layer2.expand_num)
        init_weights(self)
        # move to device
        self.to(args.cuda_device if args.use_gpu else "cpu")

    def forward(self, x, s_latent):
        out = self.enc_layer1(x)
        out = torch.cat([out, s_latent], dim=1)
        return self.enc_layer2(out)


class DecBasicBlock(nn.Module):
    def __init__(self, args, in_channel, out_channel, topology, ee_id, expand_nums):
        super().__init__()
        kernel_size = (len(topology.tolist()), args.dynamic_kernel_size)
        hidden_channel = out_channel // 2
        self.un_pool = SkeletonUnPool(un_pool_expand_nums=expand_nums)
        self.conv1by1 = nn.Conv2d(in_channels=in_channel, out_channels=out_channel, kernel_size=1)
        self.conv1 = SkeletonConvolution(in_channel, hidden_channel, kernel_size, 1, (0, kernel_size[1] // 2),
                                         topology, args.neighbor_dist_thresh, ee_id)
        self.bn1 = nn.BatchNorm2d(num_features=hidden_channel)
        self.lkrelu = nn.LeakyReLU(inplace=True)
        self.conv2 = SkeletonConvolution(hidden_channel, out_channel, kernel_size, 1, (0, kernel_size[1] // 2),
                                         topology, args.neighbor_dist_thresh, ee_id)
        self.bn2 = nn.BatchNorm2d(num_features=out_channel)

    def forward(self, x, s_latent):
        out = self.un_pool(x)
        out = torch.cat([out, s_latent], dim=1)
        identity = self.conv1by1(out)
        out = self.lkrelu(self.bn1(self.conv1(out)))
        out = self.bn2(self.conv2(out))
        out += identity
        return out


class Decoder(nn.Module):
    def __init__(self, args, topologies, ee_ids, expand_nums):
        super().__init__()
        self.dec_layer1 = DecBasicBlock(args, 128 + 32, 64, topologies[-1], ee_ids[-1], expand_nums[-1])
        self.lkrelu = nn.LeakyReLU(inplace=True)
        self.dec_layer2 = DecBasicBlock(args, 64 + 3, 4, topologies[-2], ee_ids[-2], expand_nums[-2])
        init_weights(self)
        # move to device
        self.to(args.cuda_device if args.use_gpu else "cpu")

    def forward(self, d_latent, s_latent, sx):
        out = self.lkrelu(self.dec_layer1(d_latent, s_latent))
        return self.dec_layer2(out, sx)


class StaticEncoder(nn.Module):
    def __init__(self, args, init_topology, init_ee_id):
        super().__init__()
        self.enc_layer = EncBasicBlock(args, 3, 32, init_topology, init_ee_id, layer_idx=1, dynamic=False)
        init_weights(self)
        # move to device
        self.to(args.cuda_device if args.use_gpu else "cpu")

    def forward(self, x):
        return self.enc_layer(x)


# ---- inference.py -----------------------------------------------------------------------------------------------------
args = get_args(["--use_gpu", "0"])  # the reporter's run: keep the data on the CPU
args.is_train = 0
args.batch_size = 1
print(args)
dataset = MotionDataset(args)
dataloader = DataLoader(dataset, batch_size=args.batch_size)
top_a, top_b = dataset.topologies
ee_id_a, ee_id_b = dataset.ee_ids
offsets = [each.permute(1, 0) for each in dataset.offsets]
offset_a, offset_b = offsets
enc_a = Encoder(args=args, init_topology=top_a, init_ee_id=ee_id_a)
enc_b = Encoder(args=args, init_topology=top_b, init_ee_id=ee_id_b)
static_enc_a = StaticEncoder(args=args, init_topology=top_a, init_ee_id=ee_id_a)
static_enc_b = StaticEncoder(args=args, init_topology=top_b, init_ee_id=ee_id_b)
dec_b = Decoder(args=args, topologies=enc_b.topologies, ee_ids=enc_b.ee_id_list, expand_nums=enc_b.expand_num_list)
criterion_mse = torch.nn.MSELoss()
for net in (enc_a, enc_b, static_enc_a, static_enc_b, dec_b):
    net.eval()

with torch.no_grad():
    for idx, (dynamic_a, dynamic_b) in enumerate(dataloader):
        tmp_batch = dynamic_a.size(0)
        tmp_frame = dynamic_a.size(3)
        static_a = offset_a.unsqueeze(2).repeat(1, 1, tmp_frame).unsqueeze(0).repeat(tmp_batch, 1, 1, 1).detach()
        static_b = offset_b.unsqueeze(2).repeat(1, 1, tmp_frame).unsqueeze(0).repeat(tmp_batch, 1, 1, 1).detach()
        mix_a = torch.cat([dynamic_a, static_a], dim=1)
        # encode A's motion
        s_latent_a = static_enc_a(static_a)
        d_latent_a = enc_a(mix_a, s_latent_a)
        # encode B's static part, decode A's motion on B's skeleton
        s_latent_b = static_enc_b(static_b)
        pred_dynamic_b = dec_b(d_latent_a, s_latent_b, static_b)
        denorm_pred_rot_b, denorm_pred_root_pos_b = dataset.de_normalize(raw=pred_dynamic_b, character_idx=1)
        denorm_rot_b, denorm_root_pos_b = dataset.de_normalize(raw=dynamic_b, character_idx=1)
        rec_loss_1 = criterion_mse(denorm_pred_rot_b, denorm_rot_b)
        rec_loss_2 = criterion_mse(denorm_pred_root_pos_b / 236.57, denorm_root_pos_b / 236.57)
        rec_loss_4 = criterion_mse(pred_dynamic_b, dynamic_b)
        total_loss = rec_loss_1 + rec_loss_2 + rec_loss_4
        print(f"{dataset.bvh_file_list[idx]}: rec1 {rec_loss_1.item():.4f} rec2 {rec_loss_2.item():.4f} "
              f"rec4 {rec_loss_4.item():.4f} total {total_loss.item():.4f} -> {tuple(pred_dynamic_b.shape)}")
