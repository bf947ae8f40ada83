"""TorchIO inference-notebook preprocessing of a T1 MRI (TorchIO-project/torchio at 92a8698, re-typed: io.read_image/_read_sitk/sitk_to_nib keeping the file's pixel type, Subject/ScalarImage, ToCanonical, Resample, HistogramStandardization with NiftyNet's landmarks, ZNormalization, Transform.mean as the masking method; SimpleITK is a stand-in reader of an int16 volume; a small 3D CNN segments the result): the volume stays int16 from the reader, and the masking method's tensor.mean() refuses the Short tensor
source: https://github.com/TorchIO-project/torchio/issues/407
reported-error: RuntimeError: Can only calculate the mean of floating types. Got Short instead (transform(subject) -> HistogramStandardization(landmarks={'t1': li_landmarks}, masking_method=tio.ZNormalization.mean))
outcome: RuntimeError: mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Short at line 86
root-cause: line 86
expect: DG005
"""
import copy

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(0)


# ---- SimpleITK stand-in: a T1 volume stored as int16 (as most NIfTI/MHA T1 scans are) ------------------------------
class SitkImage:
    def __init__(self, array_zyx, spacing=(1.0, 1.0, 1.0)):
        self.array, self.spacing = array_zyx, spacing

    def GetArrayFromImage(self):
        return self.array

    def GetSpacing(self):
        return self.spacing


def sitk_read_image(path):
    z, y, x = 24, 28, 24
    zz, yy, xx = np.meshgrid(np.linspace(-1, 1, z), np.linspace(-1, 1, y), np.linspace(-1, 1, x), indexing="ij")
    head = (zz ** 2 + yy ** 2 + xx ** 2) < 0.8
    brain = (zz ** 2 + yy ** 2 + xx ** 2) < 0.5
    t1 = np.where(head, 300, 0) + np.where(brain, 450, 0) + rng.normal(0, 25, (z, y, x))
    return SitkImage(np.clip(t1, 0, None).astype(np.int16))


# ---- torchio/data/io.py --------------------------------------------------------------------------------------------
def sitk_to_nib(image):
    data = image.GetArrayFromImage().transpose()
    data = data[np.newaxis]  # add channels dimension
    affine = np.diag((-1.0, -1.0, 1.0, 1.0)) @ np.diag((*image.GetSpacing(), 1.0))
    return data, affine


def check_uint_to_int(array):
    # This is because PyTorch won't take uint16 nor uint32
    if array.dtype == np.uint16:
        return array.astype(np.int32)
    if array.dtype == np.uint32:
        return array.astype(np.int64)
    return array


def read_image(path):
    image = sitk_read_image(str(path))
    data, affine = sitk_to_nib(image)
    data = check_uint_to_int(data)
    tensor = torch.from_numpy(data)  # root-cause-alt
    return tensor, affine


# ---- torchio/data: Image, ScalarImage, Subject ---------------------------------------------------------------------
class ScalarImage(dict):
    def __init__(self, path):
        super().__init__(path=path)
        self.data, self.affine = read_image(path)


class Subject(dict):
    def get_images_dict(self):
        return {k: v for k, v in self.items() if isinstance(v, ScalarImage)}


# ---- torchio/transforms --------------------------------------------------------------------------------------------
class Transform:
    def __call__(self, subject):
        subject = copy.copy(subject)
        with np.errstate(all="raise"):
            transformed = self.apply_transform(subject)
        return transformed

    @staticmethod
    def mean(tensor):
        mask = tensor > tensor.mean()  # root-cause  # fails-here
        return mask

    @staticmethod
    def ones(tensor):
        return torch.ones_like(tensor, dtype=torch.bool)

    @staticmethod
    def get_mask_from_masking_method(masking_method, subject, tensor):
        if masking_method is None:
            return Transform.ones(tensor)
        elif callable(masking_method):
            return masking_method(tensor)
        raise ValueError(f"Masking method not understood: {masking_method}")


class ToCanonical(Transform):
    def apply_transform(self, subject):
        for image in subject.get_images_dict().values():
            if image.affine[0, 0] < 0:  # LPS -> RAS: flip the first two spatial axes
                image.data = torch.flip(image.data, dims=(1, 2))
                image.affine = np.diag((1.0, 1.0, 1.0, 1.0)) @ np.abs(image.affine)
        return subject


class Resample(Transform):
    def __init__(self, target=1):
        self.target = target

    def apply_transform(self, subject):
        for image in subject.get_images_dict().values():
            spacing = np.abs(np.diag(image.affine)[:3])
            if not np.allclose(spacing, self.target):
                raise NotImplementedError("this re-typing keeps 1 mm volumes")
        return subject


class NormalizationTransform(Transform):
    def __init__(self, masking_method=None):
        self.masking_method = masking_method

    def apply_transform(self, subject):
        for image_name, image in subject.get_images_dict().items():
            mask = Transform.get_mask_from_masking_method(self.masking_method, subject, image.data)
            self.apply_normalization(subject, image_name, mask)
        return subject


DEFAULT_CUTOFF = 0.01, 0.99


def _standardize_cutoff(cutoff):
    cutoff = np.asarray(cutoff)
    cutoff[0] = max(0., cutoff[0])
    cutoff[1] = min(1., cutoff[1])
    cutoff[0] = np.min([cutoff[0], 0.09])
    cutoff[1] = np.max([cutoff[1], 0.91])
    return cutoff


def _get_percentiles(percentiles_cutoff):
    quartiles = np.arange(25, 100, 25).tolist()
    deciles = np.arange(10, 100, 10).tolist()
    all_percentiles = list(percentiles_cutoff) + quartiles + deciles
    return np.array(sorted(set(all_percentiles)))


def normalize(tensor, landmarks, mask, cutoff=None, epsilon=1e-5):
    cutoff_ = DEFAULT_CUTOFF if cutoff is None else cutoff
    data = tensor.numpy()
    shape = data.shape
    data = data.reshape(-1).astype(np.float32)
    mask = mask.numpy().reshape(-1)
    range_to_use = [0, 1, 2, 4, 5, 6, 7, 8, 10, 11, 12]
    percentiles = _get_percentiles(100 * np.array(_standardize_cutoff(cutoff_)))
    percentile_values = np.percentile(data[mask], percentiles)
    range_mapping = landmarks[range_to_use]
    range_perc = percentile_values[range_to_use]
    diff_perc = np.diff(range_perc)
    diff_perc[diff_perc < epsilon] = np.inf
    affine_map = np.zeros([2, len(range_to_use) - 1])
    affine_map[0] = np.diff(range_mapping) / diff_perc
    affine_map[1] = range_mapping[:-1] - affine_map[0] * range_perc[:-1]
    bin_id = np.digitize(data, range_perc[1:-1], right=False)
    lin_img = affine_map[0, bin_id]
    aff_img = affine_map[1, bin_id]
    new_img = lin_img * data + aff_img
    return torch.as_tensor(new_img.reshape(shape))


class HistogramStandardization(NormalizationTransform):
    def __init__(self, landmarks, masking_method=None):
        super().__init__(masking_method=masking_method)
        self.landmarks_dict = {k: np.asarray(v) for k, v in landmarks.items()}

    def apply_normalization(self, subject, image_name, mask):
        image = subject[image_name]
        image.data = normalize(image.data, self.landmarks_dict[image_name], mask=mask)


class ZNormalization(NormalizationTransform):
    def apply_normalization(self, subject, image_name, mask):
        image = subject[image_name]
        standardized = self.znorm(image.data, mask)
        if standardized is None:
            raise RuntimeError(f'Standard deviation is 0 for masked values in image "{image_name}"')
        image.data = standardized

    @staticmethod
    def znorm(tensor, mask):
        tensor = tensor.clone().float()
        values = tensor.masked_select(mask)
        mean, std = values.mean(), values.std()
        if std == 0:
            return None
        tensor -= mean
        tensor /= std
        return tensor


class Compose(Transform):
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, subject):
        for t in self.transforms:
            subject = t(subject)
        return subject


# ---- the inference notebook ----------------------------------------------------------------------------------------
# From NiftyNet model zoo
LI_LANDMARKS = ("4.4408920985e-16 8.06305571158 15.5085721044 18.7007018006 21.5032879029 26.1413278906 "
                "29.9862059045 33.8384058795 38.1891334787 40.7217966068 44.0109152758 58.3906435207 100.0")
li_landmarks = np.array([float(n) for n in LI_LANDMARKS.split()])

subject = Subject(t1=ScalarImage("t1.nii.gz"))
print("t1 dtype from the reader:", subject["t1"].data.dtype)
transforms = [
    ToCanonical(),
    Resample(1),
    HistogramStandardization(landmarks={"t1": li_landmarks}, masking_method=ZNormalization.mean),
    ZNormalization(masking_method=ZNormalization.mean),
]
transform = Compose(transforms)
preprocessed = transform(subject)

# HighRes3DNet-like parcellation of the standardized volume (a small stand-in)
model = nn.Sequential(nn.Conv3d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv3d(8, 8, 3, padding=2, dilation=2), nn.ReLU(),
                      nn.Conv3d(8, 4, 1)).eval()
with torch.no_grad():
    logits = model(preprocessed["t1"].data[None])
parcellation = logits.argmax(dim=1)
print("standardized t1: mean %.3f std %.3f; labels used: %s" % (
    preprocessed["t1"].data.mean(), preprocessed["t1"].data.std(), torch.unique(parcellation).tolist()))
