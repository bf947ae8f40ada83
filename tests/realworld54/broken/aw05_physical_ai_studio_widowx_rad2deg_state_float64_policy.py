"""Running a trained ACT-style visuomotor policy on a Trossen WidowX AI follower arm in physical-ai-studio's inference worker (open-edge-platform/physical-ai-studio PR #288): the follower's get_action() converts joint positions with np.rad2deg, which returns np.float64 scalars, and _build_geti_action_observation builds the state with torch.tensor([...]) of those values, a float64 tensor that reaches the float32 policy's state projection
source: https://github.com/open-edge-platform/physical-ai-studio/pull/288
reported-error: "fix: convert robot state to float ... A temporal fix, inference library should ideally sort this out": the PR appends .float() to the torch.tensor(...).unsqueeze(0) that builds the observation state (a float64 state fails in the policy's first Linear: mat1 and mat2 must have the same dtype)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 91
root-cause: line 109
expect: DG004
"""
import os
import tempfile
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(0)
ckpt_dir = tempfile.mkdtemp()


class WidowXDriver:
    """Stand-in for trossen_arm.TrossenArmDriver: positions in radians, python floats."""

    def __init__(self, n_joints=7):
        self.positions = list(rng.uniform(-0.5, 0.5, n_joints).tolist())
        self.velocities = [0.0] * n_joints

    def get_all_positions(self):
        return list(self.positions)

    def get_all_velocities(self):
        return list(self.velocities)

    def set_all_positions(self, positions, goal_time, blocking, velocities):
        self.velocities = [(p - q) / goal_time for p, q in zip(positions, self.positions)]
        self.positions = list(positions)


class TrossenWidowXAIFollower:
    motor_names = {0: "shoulder_pan", 1: "shoulder_lift", 2: "elbow_flex", 3: "wrist_flex", 4: "wrist_yaw",
                   5: "wrist_roll", 6: "gripper"}

    def __init__(self):
        self.driver = WidowXDriver()

    def features(self):
        return [f"{m}.pos" for m in self.motor_names.values()] + [f"{m}.vel" for m in self.motor_names.values()]

    def get_action(self):
        positions, velocities = self.driver.get_all_positions(), self.driver.get_all_velocities()
        obs_dict = {}
        for index, name in self.motor_names.items():
            obs_dict[f"{name}.pos"] = np.rad2deg(positions[index]) if "gripper" not in name else positions[index]  # root-cause-alt
        for index, name in self.motor_names.items():
            obs_dict[f"{name}.vel"] = velocities[index]
        return obs_dict

    def read_state(self):
        return {"event": "state_was_updated", "state": self.get_action(), "is_controlled": False}

    def set_joints_state(self, joints, goal_time):
        ps = [np.deg2rad(joints[f"{m}.pos"]) if m != "gripper" else joints[f"{m}.pos"] for m in self.motor_names.values()]
        self.driver.set_all_positions(ps, goal_time, False, None)
        return joints


class Camera:
    def get_latest_frame(self):
        return True, rng.integers(0, 256, (96, 128, 3), dtype=np.uint8)  # HWC RGB


@dataclass
class Observation:
    state: torch.Tensor
    images: dict


class ACTPolicy(nn.Module):
    """Small ACT-like policy: state + image tokens, learned action queries, action chunk of 10."""

    def __init__(self, state_dim, action_dim, chunk=10, dim=64):
        super().__init__()
        self.state_proj = nn.Linear(state_dim, dim)
        self.backbone = nn.Sequential(nn.Conv2d(3, 32, 5, stride=4), nn.ReLU(), nn.Conv2d(32, dim, 3, stride=2), nn.ReLU())
        self.queries = nn.Parameter(torch.randn(chunk, dim) * 0.02)
        layer = nn.TransformerDecoderLayer(dim, 4, 128, batch_first=True)
        self.decoder = nn.TransformerDecoder(layer, 2)
        self.action_head = nn.Linear(dim, action_dim)

    def forward(self, observation):
        state_token = self.state_proj(observation.state).unsqueeze(1)  # fails-here
        image_tokens = [self.backbone(img).flatten(2).transpose(1, 2) for img in observation.images.values()]
        memory = torch.cat([state_token] + image_tokens, dim=1)
        queries = self.queries.unsqueeze(0).expand(memory.size(0), -1, -1)
        return self.action_head(self.decoder(queries, memory))

    @torch.no_grad()
    def select_action(self, observation):
        return self.forward(observation)


class InferenceWorker:
    def __init__(self, follower, cameras, model):
        self.follower, self.cameras, self.model = follower, cameras, model
        self.action_keys = follower.features()
        self.action_queue = []

    def _build_geti_action_observation(self, robot_observation):
        state = torch.tensor([value for key, value in robot_observation.items() if key in self.action_keys]).unsqueeze(0)  # root-cause
        images = {}
        for camera_name in self.cameras:
            frame = robot_observation[camera_name]
            images[camera_name] = torch.from_numpy(frame)
            images[camera_name] = images[camera_name].float() / 255
            images[camera_name] = images[camera_name].permute(2, 0, 1).contiguous().unsqueeze(0)
        return Observation(state=state, images=images)

    def run(self, n_steps):
        for step in range(n_steps):
            state = self.follower.read_state()["state"]
            for camera_id, camera in self.cameras.items():
                _success, frame = camera.get_latest_frame()
                state[camera_id] = frame
            if not self.action_queue:
                observation = self._build_geti_action_observation(state)
                self.action_queue = self.model.select_action(observation)[0].tolist()
            action = self.action_queue.pop(0)
            formatted_actions = dict(zip(self.action_keys, action))
            self.follower.set_joints_state(formatted_actions, 1 / 30)
            if step % 10 == 0:
                print(f"step {step} shoulder_pan.pos {formatted_actions['shoulder_pan.pos']:+.3f}")


# a "trained" checkpoint exported by the training app, loaded by the inference worker
follower = TrossenWidowXAIFollower()
policy = ACTPolicy(state_dim=len(follower.features()), action_dim=len(follower.features()))
torch.save(policy.state_dict(), os.path.join(ckpt_dir, "act_widowx.pt"))
model = ACTPolicy(state_dim=len(follower.features()), action_dim=len(follower.features()))
model.load_state_dict(torch.load(os.path.join(ckpt_dir, "act_widowx.pt"), map_location="cpu"))
model.eval()

worker = InferenceWorker(follower, {"wrist": Camera(), "overview": Camera()}, model)
worker.run(n_steps=40)
