"""Image crop detection by absolute patch localization (basilevh/dissecting-image-crops: data.ImageCropPatchScaleDataset cropping half of the photos and returning patches, location labels, a downscaled global image, the crop rectangle and a 'cropped' flag; model.JointLocationCropRectangleNet; train.py's _train_epoch / _val_epoch / _training_loop with CrossEntropyLoss per patch location, MSELoss on the rectangle and BCEWithLogitsLoss on the crop score), issue #2: the dataset returns 'cropped' as a Python float (is_cropped_value = 1.0 or 0.0), the default collate makes it a float64 tensor, and binary_loss(predicted_scores, true_scores) gets a float64 target for its float32 logits (torch of the report raised "expected ... dtype Double but got ... dtype Float"; current torch computes the BCE loss, and then the total loss, in float64)
source: https://github.com/basilevh/dissecting-image-crops/issues/2
reported-error: RuntimeError: expected backend CUDA and dtype Double but got backend CUDA and dtype Float (python train.py, raised from binary_loss_value = binary_loss(predicted_scores, true_scores) in _train_epoch)
outcome: ok (silent: true_scores = mbatch['cropped'] is float64, so binary_loss(predicted_scores, true_scores) at line 238 returns a float64 BCE-with-logits loss and current_loss becomes float64; printed as "binary loss dtype torch.float64"; no exception)
root-cause: line 141
expect: DG007
"""
import argparse
import os
import tempfile
import time

import numpy as np

import torch
import torch.nn
import torch.nn.functional
import torch.utils.data


# ---- data.py (reduced: .npy photos instead of JPEGs, torch interpolation instead of cv2.resize)
def _read_image_robust(img_path):
    try:
        image = np.load(img_path).copy()
        success = image.ndim == 3 and image.shape[2] == 3
    except IOError as e:
        image, success = None, False
        print("Failed to read image file:", img_path, e)
    return image, success


def _ensure_landscape(image):
    if image.shape[0] > image.shape[1]:
        return np.flip(image.swapaxes(0, 1), 0).copy(), 90
    return image, 0


def _extract_random_crop_edge(image, min_factor, max_factor):
    size_factor = np.random.uniform(min_factor, max_factor)
    width, height = image.shape[1], image.shape[0]
    x1 = np.random.uniform(0, 1 - size_factor)
    y1 = np.random.uniform(0, 1 - size_factor)
    stick_edge = np.random.randint(0, 4)
    if stick_edge == 0:
        x1 = 0.0
    elif stick_edge == 1:
        x1 = 1.0 - size_factor
    elif stick_edge == 2:
        y1 = 0.0
    else:
        y1 = 1.0 - size_factor
    x2, y2 = x1 + size_factor, y1 + size_factor
    crop = image[max(0, int(y1 * height)):min(height, int(y2 * height)),
                 max(0, int(x1 * width)):min(width, int(x2 * width))]
    return crop, (x1, x2, y1, y2), size_factor


def _resize(image, width, height):
    t = torch.from_numpy(image.astype(np.float32)).permute(2, 0, 1).unsqueeze(0)
    t = torch.nn.functional.interpolate(t, size=(height, width), mode="bilinear", align_corners=False)
    return t[0].permute(1, 2, 0).clamp(0, 255).numpy().astype(np.uint8)


def _get_patch_xy_clear(current_cell, full_size, crop_rectangle, grid_size, patch_dim, patch_jitter):
    x, y = current_cell
    width, height = full_size
    crop_x1, crop_x2, crop_y1, crop_y2 = crop_rectangle
    grid_size_x, grid_size_y = grid_size
    image_center_x = (x + 0.5) / grid_size_x
    orig_center_x = image_center_x * (crop_x2 - crop_x1) + crop_x1
    index_x = np.floor(orig_center_x * grid_size_x)
    x1_pxl = int(image_center_x * width - patch_dim / 2.0)
    image_center_y = (y + 0.5) / grid_size_y
    orig_center_y = image_center_y * (crop_y2 - crop_y1) + crop_y1
    index_y = np.floor(orig_center_y * grid_size_y)
    y1_pxl = int(image_center_y * height - patch_dim / 2.0)
    if patch_jitter:
        x1_pxl = np.clip(x1_pxl + np.random.randint(-2, 2), 0, width - patch_dim)
        y1_pxl = np.clip(y1_pxl + np.random.randint(-2, 2), 0, height - patch_dim)
    return x1_pxl, x1_pxl + patch_dim, y1_pxl, y1_pxl + patch_dim, index_x, index_y


def _to_tensor(pic):  # torchvision.transforms.ToTensor for HxWxC uint8
    return torch.from_numpy(pic.transpose((2, 0, 1)).copy()).float().div(255)


class ImageCropPatchScaleDataset(torch.utils.data.Dataset):
    def __init__(self, root_dir, size_factor_range, use_patches, use_global, grid_size, patch_dim, global_size,
                 patch_jitter, crop_probability):
        self._root_dir = root_dir
        self._all_files = sorted(f for f in os.listdir(root_dir) if f.endswith(".npy"))
        self._file_count = len(self._all_files)
        self._min_size_factor, self._max_size_factor = size_factor_range
        self._use_patches, self._use_global = use_patches, use_global
        self._grid_size_x, self._grid_size_y = grid_size
        self._patch_dim = patch_dim
        self._global_size = global_size
        self._patch_jitter = patch_jitter
        self._crop_probability = crop_probability
        self._patch_tf = _to_tensor
        self._global_tf = _to_tensor

    def __len__(self):
        return self._file_count

    def __getitem__(self, index):
        img_name = self._all_files[index]
        img_path = os.path.join(self._root_dir, img_name)
        orig_image, success = _read_image_robust(img_path)
        if not success:
            raise RuntimeError(f"Could not load image: {img_name} (index {index})")
        orig_image, angle = _ensure_landscape(orig_image)
        orig_width, orig_height = orig_image.shape[1], orig_image.shape[0]

        is_cropped = np.random.uniform(0.0, 1.0) >= 1.0 - self._crop_probability
        if not is_cropped:
            image = orig_image
            x1 = y1 = 0.0
            x2 = y2 = 1.0
            size_factor = 1.0
        else:
            image, (x1, x2, y1, y2), size_factor = _extract_random_crop_edge(
                orig_image, self._min_size_factor, self._max_size_factor)
        width, height = image.shape[1], image.shape[0]

        patches_list, labels_list = [], []
        for y in range(self._grid_size_y):
            for x in range(self._grid_size_x):
                x1_pxl, x2_pxl, y1_pxl, y2_pxl, index_x, index_y = _get_patch_xy_clear(
                    (x, y), (width, height), (x1, x2, y1, y2), (self._grid_size_x, self._grid_size_y),
                    self._patch_dim, self._patch_jitter)
                patch = self._patch_tf(image[y1_pxl:y2_pxl, x1_pxl:x2_pxl])
                label = index_x + index_y * self._grid_size_x
                patches_list.append(patch)
                labels_list.append(label)
        patches_tensor = torch.stack(patches_list)
        labels_tensor = torch.tensor(labels_list)

        global_image = self._global_tf(_resize(image, *self._global_size))

        is_cropped_value = (1.0 if is_cropped else 0.0)  # root-cause
        rectangle = np.array([x1, x2, y1, y2], dtype=np.float32)
        return {"global": global_image, "orig_res": (orig_width, orig_height), "cur_res": (width, height),
                "path": img_path, "angle": angle, "size_factor": size_factor, "cropped": is_cropped_value,
                "patches": patches_tensor, "labels": labels_tensor, "rectangle": rectangle}


# ---- model.py (torchvision is not installed here: _create_resnet builds a reduced ResNet-style backbone)
def _create_resnet(name, input_channels, output_size):
    name = name.lower()
    if name == "none":
        return None
    width = 16 if name == "resnet18" else 24
    return torch.nn.Sequential(
        torch.nn.Conv2d(input_channels, width, kernel_size=7, stride=2, padding=3, bias=False),
        torch.nn.BatchNorm2d(width), torch.nn.ReLU(),
        torch.nn.Conv2d(width, width * 2, kernel_size=3, stride=2, padding=1, bias=False),
        torch.nn.BatchNorm2d(width * 2), torch.nn.ReLU(),
        torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(width * 2, output_size))


def _add_coordinates_tensor(input_tensor):
    B, C, H, W = input_tensor.shape
    coords = torch.zeros_like(input_tensor[:, :2])
    y = torch.linspace(start=0.0, end=1.0, steps=H).view(1, 1, H, 1).repeat((B, 1, 1, W))
    x = torch.linspace(start=0.0, end=1.0, steps=W).view(1, 1, 1, W).repeat((B, 1, H, 1))
    coords[:, 0:1] = y
    coords[:, 1:2] = x
    return torch.cat((input_tensor, coords), dim=1)


class JointLocationCropRectangleNet(torch.nn.Module):
    def __init__(self, backbone_patch="resnet18", backbone_global="resnet34", location_classes=16,
                 patch_embedding_size=64, global_embedding_size=64, add_coordinates_global=True):
        super(JointLocationCropRectangleNet, self).__init__()
        self._backbone_patch = _create_resnet(backbone_patch, 3, patch_embedding_size)
        self._backbone_global = _create_resnet(backbone_global, 5 if add_coordinates_global else 3,
                                               global_embedding_size)
        self._location_classes = location_classes
        self._total_embedding_size = location_classes * patch_embedding_size + global_embedding_size
        self._add_coordinates_global = add_coordinates_global
        self._location_net = torch.nn.Linear(patch_embedding_size, location_classes)
        self._rectangle_net = torch.nn.Sequential(
            torch.nn.Linear(self._total_embedding_size, 512), torch.nn.ReLU(),
            torch.nn.Linear(512, 256), torch.nn.ReLU(), torch.nn.Linear(256, 5))

    def forward(self, patches_tensor, global_image):
        embeddings_list, locations_list = [], []
        for i in range(patches_tensor.shape[1]):
            embedding = self._backbone_patch(patches_tensor[:, i])
            embeddings_list.append(embedding)
            locations_list.append(self._location_net(embedding))
        if self._add_coordinates_global:
            global_image = _add_coordinates_tensor(global_image)
        embeddings_list.append(self._backbone_global(global_image))
        rectangle_score = self._rectangle_net(torch.cat(embeddings_list, dim=1))
        return locations_list, rectangle_score


# ---- train.py
class SummaryWriter:
    """tensorboard is not installed here: a stand-in that keeps the scalars."""

    def __init__(self, log_dir):
        self.log_dir, self.scalars = log_dir, []

    def add_scalar(self, tag, value, step):
        self.scalars.append((tag, float(value), step))


def _train_epoch(my_model, loader, device, epoch, location_losses, rectangle_loss, binary_loss, optimizer, writer,
                 location_classes, lambda_patch, lambda_rect):
    start_time = time.time()
    my_model.train()
    running_losses = [0.0] * (location_classes + 3)
    running_corrects = [0] * (location_classes + 1)
    for mbatch in loader:
        patches = mbatch["patches"].to(device)
        true_locations = mbatch["labels"].type(torch.LongTensor).to(device)
        global_images = mbatch["global"].to(device)
        true_rectangles = mbatch["rectangle"].to(device)
        true_scores = mbatch["cropped"].to(device)

        predicted_locations_list, predicted_rectangles_scores = my_model(patches, global_images)

        current_loss = 0.0
        patch_loss_values = []
        for i in range(location_classes):
            patch_loss_value = location_losses[i](predicted_locations_list[i], true_locations[:, i])
            patch_loss_values.append(patch_loss_value)
            current_loss = current_loss + patch_loss_value * lambda_patch
            running_corrects[i] += torch.mean(
                (torch.argmax(predicted_locations_list[i], dim=1) == true_locations[:, i]).type(torch.float32)).item()

        predicted_rectangles = predicted_rectangles_scores[:, :4]
        predicted_scores = predicted_rectangles_scores[:, 4]
        rectangle_loss_value = rectangle_loss(predicted_rectangles, true_rectangles)
        binary_loss_value = binary_loss(predicted_scores, true_scores)  # fails-here
        current_loss = current_loss + rectangle_loss_value * lambda_rect
        current_loss = current_loss + binary_loss_value

        optimizer.zero_grad()
        current_loss.backward()
        optimizer.step()

        for i in range(location_classes):
            running_losses[i] += patch_loss_values[i].item()
        running_losses[location_classes] += rectangle_loss_value.item()
        running_losses[location_classes + 1] += binary_loss_value.item()
        running_losses[location_classes + 2] += current_loss.item()
        binary_predictions = (predicted_scores >= 0.0)
        running_corrects[location_classes] += torch.mean((binary_predictions == true_scores).type(torch.float32)).item()
        binary_loss_dtype = binary_loss_value.dtype

    mean_losses = np.array(running_losses) / len(loader)
    accuracies = np.array(running_corrects) / len(loader)
    print(f"_train_epoch() took {int(time.time() - start_time):d}s")
    print(f"Mean loss: {mean_losses[-1]:.3f} (binary loss dtype {binary_loss_dtype})")
    print(f"Accuracy: {accuracies[-1]:.3f}")
    print(f"Mean patch location accuracy: {accuracies[:-1].mean():.3f}")
    writer.add_scalar("train/binary_loss", mean_losses[location_classes + 1], epoch)
    writer.add_scalar("train/total_loss", mean_losses[location_classes + 2], epoch)
    return mean_losses, accuracies


def main(args, train_dir):
    grid_size = tuple(args.grid_size)
    location_classes = int(np.prod(grid_size))
    global_size = (args.global_dim, int(args.global_dim / args.aspect_ratio))
    train_dataset = ImageCropPatchScaleDataset(train_dir, tuple(args.size_factor_range), True, True, grid_size,
                                               args.patch_dim, global_size, True, 0.5)
    train_loader = torch.utils.data.DataLoader(train_dataset, batch_size=args.batch_size, shuffle=False,
                                               num_workers=args.num_workers, drop_last=True, pin_memory=False)
    my_model = JointLocationCropRectangleNet(backbone_patch=args.backbone_patch, backbone_global=args.backbone_global,
                                             location_classes=location_classes, patch_embedding_size=64,
                                             global_embedding_size=64, add_coordinates_global=True)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    my_model = my_model.to(device)

    location_losses = [torch.nn.CrossEntropyLoss() for _ in range(location_classes)]
    rectangle_loss = torch.nn.MSELoss()
    binary_loss = torch.nn.BCEWithLogitsLoss()
    optimizer = torch.optim.Adam(my_model.parameters(), lr=args.initial_learn_rate, weight_decay=0)
    scheduler = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=args.learn_rate_decay)
    writer = SummaryWriter(tempfile.mkdtemp())
    for epoch in range(args.num_epochs):
        print(f"Epoch {epoch + 1} / {args.num_epochs}")
        _train_epoch(my_model, train_loader, device, epoch, location_losses, rectangle_loss, binary_loss, optimizer,
                     writer, location_classes, args.lambda_patch, args.lambda_rect)
        scheduler.step()


def make_photos(root, n=16, seed=0):
    rng = np.random.default_rng(seed)
    os.makedirs(root, exist_ok=True)
    for i in range(n):
        h, w = (96, 144) if i % 3 else (144, 96)
        yy, xx = np.mgrid[:h, :w]
        img = np.stack([xx * 255 / w, yy * 255 / h, np.full((h, w), 128.0)], -1) + rng.normal(0, 8, (h, w, 3))
        np.save(os.path.join(root, "photo_%03d.npy" % i), np.clip(img, 0, 255).astype(np.uint8))


if __name__ == "__main__":
    np.random.seed(1)
    torch.manual_seed(1)
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch_size", default=8, type=int)
    parser.add_argument("--num_epochs", default=2, type=int)
    parser.add_argument("--num_workers", default=0, type=int)
    parser.add_argument("--initial_learn_rate", default=0.005, type=float)
    parser.add_argument("--learn_rate_decay", default=0.942, type=float)
    parser.add_argument("--backbone_global", default="resnet34", type=str)
    parser.add_argument("--backbone_patch", default="resnet18", type=str)
    parser.add_argument("--global_dim", default=48, type=int)
    parser.add_argument("--patch_dim", default=24, type=int)
    parser.add_argument("--aspect_ratio", default=1.5, type=float)
    parser.add_argument("--size_factor_range", nargs="+", default=[0.5, 0.9], type=float)
    parser.add_argument("--grid_size", nargs="+", default=[2, 2], type=int)
    parser.add_argument("--lambda_patch", default=0.15, type=float)
    parser.add_argument("--lambda_rect", default=3.0, type=float)
    args = parser.parse_args([])
    train_dir = os.path.join(tempfile.mkdtemp(), "train")
    make_photos(train_dir)
    main(args, train_dir)
