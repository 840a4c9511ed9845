# Helpers of the DIV2K super-resolution repository of seed 000 (the post calls
# utils.rgb2ycbcr and utils.img_to_uint8 but does not show them), written the
# way such a 2018 module was: np.dot, and the np.float alias NumPy has removed.
import numpy as np

_YCBCR_FROM_RGB = np.array([[65.481, 128.553, 24.966],
                            [-37.797, -74.203, 112.0],
                            [112.0, -93.786, -18.214]])
_YCBCR_OFFSET = np.array([16, 128, 128])


def rgb2ycbcr(img):
    # ITU-R BT.601 on 0-255 RGB, as MATLAB's rgb2ycbcr
    img = img.astype(np.float)
    return np.dot(img, _YCBCR_FROM_RGB.T) / 255.0 + _YCBCR_OFFSET


def ycbcr2rgb(img):
    img = img.astype(np.float)
    return np.dot(img - _YCBCR_OFFSET, np.linalg.inv(_YCBCR_FROM_RGB).T) * 255.0


def img_to_uint8(img):
    if np.max(img) <= 1.0:
        img = img * 255.0
    img = np.clip(img, 0, 255)
    return np.round(img).astype(np.uint8)


def psnr(img1, img2):
    diff = img1.astype(np.float64) - img2.astype(np.float64)
    rmse = np.sqrt(np.mean(diff ** 2))
    return 20 * np.log10(255.0 / rmse)
