"""compat.numpy1.bytes_helpers: the old tostring / binary fromstring contracts."""
from __future__ import annotations

import numpy as np
import pytest
import skimage.data

from compat.numpy1.bytes_helpers import fromstring, tostring

# ---------------------------------------------------------------- tostring

def test_tostring_known_bytes():
    assert tostring(np.array([1, 258], dtype="<i2")) == b"\x01\x00\x02\x01"
    assert tostring(np.array([1, 258], dtype=">i2")) == b"\x00\x01\x01\x02"
    assert tostring(np.float32(1.0)) == b"\x00\x00\x80\x3f"


def test_tostring_orders_on_a_non_contiguous_view():
    x = np.arange(24, dtype=np.int32).reshape(4, 6)[::2, 1::2]  # a strided view
    assert tostring(x) == np.ascontiguousarray(x).tobytes()
    assert tostring(x, order="F") == np.asfortranarray(x).tobytes(order="F")
    assert tostring(x, "F") == x.T.copy().tobytes()
    fortran = np.asfortranarray(x)
    assert tostring(fortran, order="A") == x.T.copy().tobytes()
    assert tostring(x, order="A") == tostring(x, order="C")


def test_tostring_accepts_lists():
    assert tostring([1, 2]) == np.array([1, 2]).tobytes()


def test_tostring_bad_order():
    with pytest.raises(ValueError, match=r"order='K'.*'C', 'F', 'A'"):
        tostring(np.zeros(2), order="K")


# ---------------------------------------------------------------- fromstring, binary

def test_photo_round_trip_like_a_tfrecord_feature():
    # The TF1 idiom: image.tostring() into a bytes feature, fromstring back.
    img = skimage.data.chelsea()
    raw = tostring(img)
    assert len(raw) == img.size
    back = fromstring(raw, dtype=np.uint8).reshape(img.shape)
    np.testing.assert_array_equal(back, img)


def test_default_dtype_is_float64():
    x = np.array([1.5, -2.25, 1e300])
    got = fromstring(x.tobytes())
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got, x)


def test_result_is_a_writable_copy():
    source = bytearray(np.arange(4, dtype=np.int16).tobytes())
    got = fromstring(source, dtype=np.int16)
    got[0] = 99  # np.frombuffer on bytes would be read-only
    source[2:4] = b"\xff\xff"  # changing the source must not change the result
    np.testing.assert_array_equal(got, [99, 1, 2, 3])
    assert got.flags.writeable and got.flags.owndata and got.flags.c_contiguous


def test_count_reads_leading_items_and_ignores_the_rest():
    raw = np.arange(5, dtype=np.uint16).tobytes() + b"\x07"  # odd tail byte
    np.testing.assert_array_equal(fromstring(raw, dtype=np.uint16, count=3), [0, 1, 2])
    assert fromstring(raw, dtype=np.uint16, count=0).shape == (0,)


def test_byte_order_and_structured_dtypes():
    assert fromstring(b"\x00\x01\x01\x02", dtype=">u2").tolist() == [1, 258]
    rec = np.dtype([("a", "<u1"), ("b", "<i2")])
    got = fromstring(b"\x05\x00\x01\x06\xff\xff", dtype=rec)
    assert got["a"].tolist() == [5, 6] and got["b"].tolist() == [256, -1]


def test_str_is_utf8_encoded_like_old_numpy():
    np.testing.assert_array_equal(fromstring("ab\u00e9", dtype=np.uint8),
                                  [0x61, 0x62, 0xC3, 0xA9])


def test_empty_input():
    got = fromstring(b"", dtype=np.float32)
    assert got.shape == (0,) and got.dtype == np.float32


def test_size_not_a_multiple_of_itemsize():
    with pytest.raises(ValueError, match=r"10 bytes is not a multiple of the 4-byte item size"):
        fromstring(b"0123456789", dtype=np.float32)


def test_count_larger_than_data():
    with pytest.raises(ValueError, match=r"count=3 .* need 24 bytes, but only 16"):
        fromstring(bytes(16), count=3)


@pytest.mark.parametrize("dtype, match", [(object, "Python objects"), ("V0", "item size 0")])
def test_bad_dtypes(dtype, match):
    with pytest.raises(ValueError, match=match):
        fromstring(b"\x00" * 8, dtype=dtype)


def test_not_bytes():
    with pytest.raises(TypeError, match="got int"):
        fromstring(12345, dtype=np.uint8)


# ---------------------------------------------------------------- fromstring, text

def test_text_mode_delegates_to_numpy():
    np.testing.assert_array_equal(fromstring("1 2.5 3", sep=" "), [1.0, 2.5, 3.0])
    got = fromstring(b"4,5,6", dtype=np.int64, sep=",")
    assert got.dtype == np.int64 and got.tolist() == [4, 5, 6]
    assert fromstring("7 8 9", dtype=int, count=2, sep=" ").tolist() == [7, 8]


def test_text_mode_bad_text():
    with pytest.raises(ValueError):
        fromstring("1 2 x", sep=" ")
