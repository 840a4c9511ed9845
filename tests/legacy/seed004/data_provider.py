# Seed 004: the TFRecord + QueueRunner data provider of the post
# ("TFrecord&QueueRunner.md"), saved as the post writes it: the Example
# builders, parse_example_proto and batch_inputs. The post does not show
# decode_jpeg, distort_image and eval_image; they are written here the way the
# Inception image_processing.py of 2017 did them (resize method by
# thread_id % 4, colour order by thread_id % 2). See docs/divergences.md
# ("compat runner").
import os

import tensorflow as tf


def _int64_feature(value):
    """Wrapper for inserting int64 features into Example proto."""
    if not isinstance(value, list):
        value = [value]
    return tf.train.Feature(int64_list=tf.train.Int64List(value=value))
    
def _float_feature(value):
	"""Wrapper for inserting float features into Example proto."""
	if not isinstance(value, list):
		value = [value]
	return tf.train.Feature(float_list=tf.train.FloatList(value=value))

def _bytes_feature(value):
    """Wrapper for inserting bytes features into Example proto."""
    return tf.train.Feature(bytes_list=tf.train.BytesList(value=[value]))
    
def _convert_to_example(filename, image_buffer, labels, height, width, channels=3):
    """Build an Example proto for an example.
    
    Parameters
    ---------------
    @filename: string, path to an image file, e.g., '19901221.jpg'
    @image_buffer: string, JPEG encoding of RGB image
    @labels: list of semantic level name and one-hot encoder, 
        format list of tuple: [(level_name, [0,0,1,0,0,1,0,0]), ..]
    @height: integer, image height in pixels.
    @width: integer, image width in pixels.
    @channels: integer, image channels.
    Return:
    ---------------
    @example: Example proto
    """
    feature = {'image/height': _int64_feature(height),
               'image/width': _int64_feature(width),
               'image/channels': _int64_feature(channels),
               'image/filename': _bytes_feature(tf.compat.as_bytes(os.path.basename(filename))),
               'image/encoded': _bytes_feature(tf.compat.as_bytes(image_buffer))}
    for level_name, one_hot in labels:
        feature.update({'image/label/%s'%level_name: _int64_feature(one_hot)})
    example = tf.train.Example(features=tf.train.Features(feature=feature))
    return example


def parse_example_proto(example_serialized, semantic_level_settings):
    """Parses an Example proto containing a training example of an image.
    
    The output of the build_image_data.py image preprocessing script is a dataset
    containing serialized Example protocol buffers. Each Example proto contains
    the following fields:
      image/class/root: [0,1,1,0,0,0]
      image/filename: '19901221.jpg'
      image/encoded: <JPEG encoded string>
    
    Parameters
    ---------------
    @example_serialized: Scalar Tensor tf.string containing a serialized Example protocol buffer.
    @semantic_level_settings: Specify number of classes in each semantic level.
        format list of tuple: [(level_name, 10), ..]
    
    Return:
    ---------------
    @image_buffer: Tensor tf.string containing the contents of a JPEG file.
    @labels: List of Tensor tf.int32 containing the one-hot label.
    @filename: Tensor tf.string filename of the sample.
    """
    # Dense features in Example proto.
    feature_map = {
        'image/encoded': tf.FixedLenFeature([], dtype=tf.string, default_value=''),
        'image/filename': tf.FixedLenFeature([], dtype=tf.string, default_value=''),
    }
    for level, num in semantic_level_settings:
        feature_map.update({'image/label/%s' %level:
                            tf.FixedLenFeature([num], dtype=tf.int64, default_value=[-1] * num)})
    features = tf.parse_single_example(example_serialized, feature_map)
    labels = [tf.cast(features['image/label/%s' %level], dtype=tf.int32) 
              for level, _ in semantic_level_settings]
    return features['image/encoded'], labels, features['image/filename']


def decode_jpeg(image_buffer, scope=None):
    """Decode a JPEG string into one 3-D float image Tensor with values in [0, 1)."""
    with tf.name_scope(values=[image_buffer], name=scope, default_name='decode_jpeg'):
        image = tf.image.decode_jpeg(image_buffer, channels=3)
        image = tf.image.convert_image_dtype(image, dtype=tf.float32)
        return image


def distort_color(image, thread_id=0, scope=None):
    """Distort the color of the image; the order of the operations depends on thread_id."""
    with tf.name_scope(values=[image], name=scope, default_name='distort_color'):
        color_ordering = thread_id % 2
        if color_ordering == 0:
            image = tf.image.random_brightness(image, max_delta=32. / 255.)
            image = tf.image.random_saturation(image, lower=0.5, upper=1.5)
            image = tf.image.random_hue(image, max_delta=0.2)
            image = tf.image.random_contrast(image, lower=0.5, upper=1.5)
        elif color_ordering == 1:
            image = tf.image.random_brightness(image, max_delta=32. / 255.)
            image = tf.image.random_contrast(image, lower=0.5, upper=1.5)
            image = tf.image.random_saturation(image, lower=0.5, upper=1.5)
            image = tf.image.random_hue(image, max_delta=0.2)
        # The random_* ops do not necessarily clamp.
        image = tf.clip_by_value(image, 0.0, 1.0)
        return image


def distort_image(image, height, width, thread_id=0, scope=None):
    """Distort one image for training: resize (method by thread_id), flip, colour."""
    with tf.name_scope(values=[image, height, width], name=scope, default_name='distort_image'):
        # Use different resize methods in different threads: 0 bilinear,
        # 1 nearest neighbor, 2 bicubic, 3 area.
        resize_method = thread_id % 4
        distorted_image = tf.image.resize_images(image, [height, width], method=resize_method)
        distorted_image.set_shape([height, width, 3])
        distorted_image = tf.image.random_flip_left_right(distorted_image)
        distorted_image = distort_color(distorted_image, thread_id)
        return distorted_image


def eval_image(image, height, width, scope=None):
    """Prepare one image for evaluation: central crop, bilinear resize."""
    with tf.name_scope(values=[image, height, width], name=scope, default_name='eval_image'):
        image = tf.image.central_crop(image, central_fraction=0.875)
        image = tf.expand_dims(image, 0)
        image = tf.image.resize_bilinear(image, [height, width], align_corners=False)
        image = tf.squeeze(image, [0])
        return image


def batch_inputs(dataset, batch_size, train, semantic_level_settings, num_preprocess_threads=16):
    """Generate batches of data for training or validating or something.
    
    Parameters
    ---------------
    @dataset: instance of Dataset class specifying the dataset.
    @batch_size: integer, number of examples in batch
    @train: The gotten batch data if for training or not.
        if True, number of reader if large and doesn't shuffle batch data
        if False, only 1 reader and data is not shuffled.
    @semantic_level_settings: Specify number of classes in each semantic level.
        format list of tuple: [(level_name, 10), ..]
    @num_preprocess_threads: integer, total number of preprocessing threads.
    
    Return:
    ---------------
    @images: Images. 4D tensor of size [batch_size, FLAGS.image_size,
                                       image_size, 3].
    @labels: Dict, key is `level_name` in `semantic_level_settings`, value is label.
    @filenames: 1-D string Tensor of [batch_size].
    """    
    # Force all input processing onto CPU in order to reserve the GPU for the forward and backward.
    with tf.device('/cpu:0'):
        with tf.name_scope('batch_processing'):
            data_files = dataset.data_files()
            if data_files is None:
                raise ValueError('No data files found for this dataset')
            
            examples_per_shard = 1024
            # Create filename_queue
            if train:
                filename_queue = tf.train.string_input_producer(data_files, shuffle=True, capacity=16)
                input_queue_memory_factor = 16
                num_readers = 4
            else:
                filename_queue = tf.train.string_input_producer(data_files, shuffle=False, capacity=1)
                input_queue_memory_factor = 1
                num_readers = 1
            if num_preprocess_threads % 4:
                raise ValueError('Please make num_preprocess_threads a multiple '
                               'of 4 (%d % 4 != 0).', num_preprocess_threads)
            
            min_queue_examples = examples_per_shard * input_queue_memory_factor
            if train:
                examples_queue = tf.RandomShuffleQueue(
                    capacity=min_queue_examples + 3 * batch_size,
                    min_after_dequeue=min_queue_examples,
                    dtypes=[tf.string])
                # Create multiple readers to populate the queue of examples.
                enqueue_ops = []
                for _ in range(num_readers):
                    reader = dataset.reader()
                    _, value = reader.read(filename_queue)
                    enqueue_ops.append(examples_queue.enqueue([value]))
                
                tf.train.queue_runner.add_queue_runner(
                    tf.train.queue_runner.QueueRunner(examples_queue, enqueue_ops))
                example_serialized = examples_queue.dequeue()
            else:
                examples_queue = tf.FIFOQueue(
                    capacity=examples_per_shard + 3 * batch_size,
                    dtypes=[tf.string])
                # Create multiple readers to populate the queue of examples.
                reader = dataset.reader()
                _, example_serialized = reader.read(filename_queue)
            
            images_and_labels = []
            for thread_id in range(num_preprocess_threads):
                # Parse a serialized Example proto to extract the image and metadata.
                image_buffer, labels, filename = parse_example_proto(example_serialized,
                                                                     semantic_level_settings)
                image = decode_jpeg(image_buffer)
                if train:
                    image = distort_image(image, dataset.height, dataset.width, thread_id)
                else:
                    image = eval_image(image, dataset.height, dataset.width)
                
                # Finally, rescale to [-1,1] instead of [0, 1)
                image = tf.subtract(image, 0.5)
                image = tf.multiply(image, 2.0)
                images_and_labels.append([image, filename] + labels)
            
            batch_data = tf.train.batch_join(
                images_and_labels,
                batch_size=batch_size,
                capacity=2 * num_preprocess_threads * batch_size)
            
            # Get image data, filenames, level_labels separately.
            images = batch_data[0]
            images = tf.cast(images, tf.float32)
            images = tf.reshape(images, shape=[batch_size, dataset.height, dataset.width, 3])
        
            filenames = tf.reshape(batch_data[1], [batch_size])
            level_labels = {}
            for idx, settings in enumerate(semantic_level_settings):
                level_labels[settings[0]] = tf.reshape(batch_data[2 + idx], [batch_size, -1])
            
            return (images, level_labels, filenames)
