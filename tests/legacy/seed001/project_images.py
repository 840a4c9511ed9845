# The two dataset calls of the StyleGAN2 encoder's project_images.py that the
# post explains: dataset_tool.create_from_images(), then
# dataset.load_dataset(..., repeat=False, shuffle_mb=0) and a loop over the
# images with get_minibatch_np(1). Arguments: the image folder and the data
# folder (the data paths).
import argparse
import glob
import os

import numpy as np
import PIL.Image
import tensorflow as tf

import dataset_tool
import dnnlib.tflib as tflib
from training import dataset


def main():
    parser = argparse.ArgumentParser(description='Convert images to TFRecords and read them back.')
    parser.add_argument('src_dir', help='Directory with input images')
    parser.add_argument('data_dir', help='Directory for the tfrecords')
    args = parser.parse_args()

    tfrecord_dir = os.path.join(args.data_dir, 'tfrecords')
    dataset_tool.create_from_images(tfrecord_dir, args.src_dir, shuffle=0)

    tflib.init_tf()
    dataset_obj = dataset.load_dataset(
        data_dir=args.data_dir, tfrecord_dir='tfrecords',
        max_label_size=0, repeat=False, shuffle_mb=0
    )
    print('Dataset shape =', np.int32(dataset_obj.shape).tolist())
    image_filenames = sorted(glob.glob(os.path.join(args.src_dir, '*')))
    for image_idx in range(len(image_filenames)):
        images, _labels = dataset_obj.get_minibatch_np(1)
        original = np.asarray(PIL.Image.open(image_filenames[image_idx])).transpose([2, 0, 1])
        print('image %d: %s %s same as %s: %s' % (image_idx, images.shape, images.dtype,
              os.path.basename(image_filenames[image_idx]), np.array_equal(images[0], original)))
    try:
        dataset_obj.get_minibatch_np(1)
    except tf.errors.OutOfRangeError:
        print('end of data after %d images' % len(image_filenames))


if __name__ == "__main__":
    main()
