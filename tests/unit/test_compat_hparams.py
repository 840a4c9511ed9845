"""``compat.contrib.hparams.HParams``: ``tf.contrib.training.HParams`` of TensorFlow 1.15, checked in process.

The expected values and errors are TensorFlow 1.15's documented behaviour
(the string syntax, the type rules of ``set_hparam``, the checks of ``get``).
"""
from __future__ import annotations

import json

import pytest

from compat.contrib.hparams import HParams, parse_values


def test_constructor_values_and_attributes() -> None:
    hp = HParams(aaa=1, b=2.0, c_c="relu6", d="/a/b=c/d", flag=True, sizes=[64, 32])
    assert hp.values() == {"aaa": 1, "b": 2.0, "c_c": "relu6", "d": "/a/b=c/d", "flag": True,
                           "sizes": [64, 32]}
    assert (hp.aaa, hp.b, hp.c_c, hp.flag, hp.sizes) == (1, 2.0, "relu6", True, [64, 32])
    assert repr(HParams(b=2.0, aaa=1)) == "HParams([('aaa', 1), ('b', 2.0)])"
    assert str(HParams(a=1, b=[2.0, 3.0], c="relu6")) == "a=1,b=[2.0, 3.0],c=relu6"
    assert HParams().values() == {}


def test_parse_scalars_with_tf1_syntax() -> None:
    hp = HParams(aaa=1, b=2.0, c_c="relu6", d="/a/b=c/d")
    assert hp.parse("aaa=12") is hp
    assert hp.aaa == 12
    hp.parse("c_c=relu4, b=-2.0e10")
    assert (hp.c_c, hp.b) == ("relu4", -2.0e10)
    hp.parse("c_c=,b=0,")
    assert (hp.c_c, hp.b) == ("", 0.0) and type(hp.b) is float  # an int given to a float is cast
    hp.parse('c_c=2.3",b=+2,')
    assert (hp.c_c, hp.b) == ('2.3"', 2.0)
    hp.parse("b=1.5,d=/a=b/c/d,aaa=10,")
    assert hp.values() == {"aaa": 10, "b": 1.5, "c_c": '2.3"', "d": "/a=b/c/d"}
    hp.parse("")
    assert hp.aaa == 10


@pytest.mark.parametrize("text, message", [
    ("x=123", "Unknown hyperparameter type for x"),
    ("aaa=poipoi", "Could not parse hparam 'aaa' of type 'int' with value 'poipoi'"),
    ("aaa=1.0", "Could not parse hparam 'aaa' of type 'int'"),
    ("b=12x", "Could not parse hparam 'b' of type 'float'"),
    ("aaa=[123]", "Must not pass a list for single-valued parameter: aaa"),
    ("aaa=1,aaa=2", "Multiple assignments to variable 'aaa'"),
    ("=5", "Malformed hyperparameter value: =5"),
    ("aaa[0]=1", "Could not cast hparam 'aaa'"),  # TF1: an index assignment gives a dict
])
def test_parse_errors(text: str, message: str) -> None:
    hp = HParams(aaa=1, b=2.0)
    with pytest.raises(ValueError, match=message.replace("[", r"\[")):
        hp.parse(text)
    assert hp.values() == {"aaa": 1, "b": 2.0}


def test_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"Unknown hyperparameter type for lr \(known: batch, rate\)"):
        HParams(rate=0.1, batch=4).parse("lr=0.2")


@pytest.mark.parametrize("value, expected", [
    ("true", True), ("True", True), ("1", True), ("7", True),
    ("false", False), ("False", False), ("0", False),
])
def test_bool_parsing(value: str, expected: bool) -> None:
    for initial in (False, True):
        hp = HParams(use_gpu=initial)
        hp.parse("use_gpu=" + value)
        assert hp.use_gpu is expected


def test_bool_parsing_fails_on_words_tf1_did_not_accept() -> None:
    with pytest.raises(ValueError, match=r"Could not parse hparam 'use_gpu' of type 'bool' with value 'yep'"):
        HParams(use_gpu=True).parse("use_gpu=yep")


def test_lists() -> None:
    hp = HParams(aaa=[1], b=[2.0, 3.0], c_c=["relu6"], flags=[True])
    hp.parse("aaa=[12,34,56]")
    assert hp.aaa == [12, 34, 56]
    hp.parse("c_c=[relu4,relu12],b=[1.0]")
    assert (hp.c_c, hp.b) == (["relu4", "relu12"], [1.0])
    hp.parse("c_c=[],aaa=[-34]")
    assert (hp.c_c, hp.aaa) == ([], [-34])
    hp.parse("c_c=[_12,3'4\"],aaa=[+3]")
    assert (hp.c_c, hp.aaa) == (["_12", "3'4\""], [3])
    hp.parse("b=[1 2  3.5],flags=[true,0,False]")  # spaces separate elements too
    assert hp.b == [1.0, 2.0, 3.5] and all(type(v) is float for v in hp.b)
    assert hp.flags == [True, False, False]
    with pytest.raises(ValueError, match="Must pass a list for multi-valued parameter: aaa"):
        hp.parse("aaa[0]=5")  # index assignments are parsed (parse_values) but not applied, as in TF1
    for text, message in [("aaa=[poipoi]", "Could not parse"), ("aaa=[1.0]", "Could not parse"),
                          ("b=[relu]", "Could not parse"), ("aaa=123", "Must pass a list"),
                          ("x=[123]", "Unknown hyperparameter")]:
        with pytest.raises(ValueError, match=message):
            hp.parse(text)


def test_str_round_trips_through_parse() -> None:
    source = HParams(a=1, b=[2.0, 3.0], c="relu6")
    target = HParams(a=4, b=[5.0, 6.0], c="relu10")
    target.parse(str(source))
    assert target.values() == source.values()


def test_parse_values_index_assignment_and_errors() -> None:
    assert parse_values("arr[1]=10", {"arr": int}) == {"arr": {1: 10}}
    assert parse_values("x=10,arr[0]=20,arr[5]=3,y=30", {"x": int, "y": int, "arr": int}) == {
        "x": 10, "arr": {0: 20, 5: 3}, "y": 30}
    assert parse_values("a[0]=5,b[1]=true,c[2]=abc,d[3]=3.14",
                        {"a": int, "b": bool, "c": str, "d": float}) == {
        "a": {0: 5}, "b": {1: True}, "c": {2: "abc"}, "d": {3: 3.14}}
    assert parse_values("arr[0]=10,C=5,B[0]=kkk", {"arr": int}, ignore_unknown=True) == {"arr": {0: 10}}
    for text, message in [("arr[1]=[1,2,3]", "Assignment of a list to a list index."),
                          ("arr=[100,200],arr[0]=10", "Multiple assignments to variable 'arr'"),
                          ("arr[0]=10,arr[0]=20", r"Multiple assignments to variable 'arr\[0\]'"),
                          ("arr[0]=10,arr=[100]", "Multiple assignments to variable 'arr'")]:
        with pytest.raises(ValueError, match=message):
            parse_values(text, {"arr": int})
    with pytest.raises(ValueError, match="Unknown hyperparameter type for arr"):
        parse_values("arr[1]=1", {"arr[1]": int})


def test_names_with_periods_are_reached_through_getattr() -> None:
    hp = HParams()
    hp.add_hparam("a.b", 0.0)
    hp.parse("a.b=1.0")
    assert getattr(hp, "a.b") == 1.0
    hp.add_hparam("e.f", "")
    hp.parse("e.f=abc")
    assert getattr(hp, "e.f") == "abc"


def test_override_from_dict_and_set_from_map() -> None:
    hp = HParams(a=1, b=2.0, c="tanh", d=[0.5])
    assert hp.override_from_dict({"a": -2, "c": "identity", "d": [0.1, 0.2, 0.3]}) is hp
    assert hp.values() == {"a": -2, "b": 2.0, "c": "identity", "d": [0.1, 0.2, 0.3]}
    hp.set_from_map({"b": 5})
    assert hp.b == 5.0 and type(hp.b) is float


def test_set_hparam_type_rules() -> None:
    hp = HParams(int_=1, str_="str", bool_=True, float_=1.1, list_int=[1, 2], none=None)
    for name, value in [("str_", 2.2), ("int_", False), ("bool_", 1), ("bool_", "true"),
                        ("bool_", "0"), ("int_", 2.2), ("list_int", [2, 3.3]), ("int_", "2")]:
        with pytest.raises(ValueError, match=f"Could not cast hparam '{name}'"):
            hp.set_hparam(name, value)
    hp.set_hparam("float_", 1)
    assert hp.float_ == 1.0 and type(hp.float_) is float
    hp.set_hparam("none", "1")  # a None hyperparameter takes any value, as in TF1
    assert hp.none == "1"
    with pytest.raises(ValueError, match="Must not pass a list for single-valued parameter: int_"):
        hp.set_hparam("int_", [1])
    with pytest.raises(ValueError, match="Must pass a list for multi-valued parameter: list_int"):
        hp.set_hparam("list_int", 1)
    with pytest.raises(KeyError, match="'nope': no such hyperparameter .*use add_hparam"):
        hp.set_hparam("nope", 1)


def test_set_hparam_keeps_other_objects_as_given() -> None:
    class Context:
        def __init__(self, a: int) -> None:
            self.a = a

    hp = HParams(x=Context(1))
    replacement = Context(100)
    hp.set_hparam("x", replacement)
    assert hp.x is replacement


def test_add_and_del_hparam() -> None:
    hp = HParams(aaa=1, b=2.0)
    with pytest.raises(ValueError, match="Hyperparameter name is reserved: aaa"):
        hp.add_hparam("aaa", "will fail")
    with pytest.raises(ValueError, match="Hyperparameter name is reserved: values"):
        hp.add_hparam("values", 3)
    with pytest.raises(ValueError, match="Multi-valued hyperparameters cannot be empty: e"):
        hp.add_hparam("e", [])
    hp.del_hparam("aaa")
    assert "aaa" not in hp and not hasattr(hp, "aaa")
    hp.add_hparam("aaa", "will work")
    hp.set_hparam("aaa", "still works")
    assert hp.get("aaa") == "still works"
    hp.del_hparam("never_there")  # nothing happens, as in TF1
    assert hp.values() == {"b": 2.0, "aaa": "still works"}


def test_get_checks_the_default_against_the_type() -> None:
    hp = HParams(aaa=1, b=2.0, c_c="relu6", d=True, e=[5.0, 6.0])
    assert [hp.get("aaa"), hp.get("b", 3), hp.get("c_c", "x"), hp.get("d", True)] == [1, 2.0, "relu6", True]
    assert hp.get("e", [1, 2, 3]) == [5.0, 6.0]
    for key, default in [("aaa", 2.0), ("b", False), ("c_c", [1, 2, 3]), ("d", "relu"),
                         ("e", 123.0), ("e", ["a", "b"])]:
        with pytest.raises(ValueError, match=f"Hparam '{key}' of type .* is incompatible with default="):
            hp.get(key, default)
    assert hp.get("unknown") is None and hp.get("unknown", [1, 2]) == [1, 2]


def test_contains() -> None:
    hp = HParams(foo=1)
    assert "foo" in hp and "bar" not in hp and "values" not in hp


def test_json_round_trip() -> None:
    hp = HParams(aaa=1, b=2.0, c_c="relu6", d=True)
    hp.parse_json('{"aaa": 12, "b": 3.0, "c_c": "relu4", "d": false}')
    assert hp.values() == {"aaa": 12, "b": 3.0, "c_c": "relu4", "d": False}
    other = HParams(aaa=10, b=20.0, c_c="hello", d=True)
    other.parse_json(hp.to_json())
    assert other.values() == hp.values()
    assert json.loads(hp.to_json()) == hp.values()
    assert HParams(aaa=123).to_json() == '{"aaa": 123}'
    assert HParams(aaa=123).to_json(indent=2) == '{\n  "aaa": 123\n}'
    assert HParams(aaa=123).to_json(separators=(";", "=")) == '{"aaa"=123}'
    assert HParams(c_c=False, aaa=123, b="hello").to_json(sort_keys=True) == (
        '{"aaa": 123, "b": "hello", "c_c": false}')
    with pytest.raises(KeyError, match="zzz"):
        hp.parse_json('{"zzz": 1}')
    with pytest.raises(ValueError, match="Could not cast hparam 'aaa'"):
        hp.parse_json('{"aaa": "twelve"}')


def test_model_structure_and_proto_refusal() -> None:
    hp = HParams(model_structure="tree", a=1)
    assert hp.get_model_structure() == "tree"
    hp.set_model_structure("graph")
    assert hp.get_model_structure() == "graph"
    with pytest.raises(ValueError, match="hparam_def=.* not provided .*parse_json"):
        HParams(hparam_def=b"serialized")

