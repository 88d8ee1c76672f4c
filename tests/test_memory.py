"""liedyn.memory: the opt-in allocator setting passes the right values to mallopt."""
import ctypes

import pytest

from liedyn import memory


class FakeLibc:
    def __init__(self, answer=1):
        self.calls, self.answer = [], answer

        def mallopt(param, value):
            self.calls.append((param, value))
            return self.answer
        self.mallopt = mallopt


def test_sets_the_three_glibc_parameters(monkeypatch):
    libc = FakeLibc()
    monkeypatch.setattr(ctypes, "CDLL", lambda name: libc)
    assert memory.reuse_freed_memory(mmap_threshold=1 << 28, top_pad=1 << 20) is True
    assert dict(libc.calls) == {-3: 1 << 28, -1: 1 << 29, -2: 1 << 20}


def test_values_are_clipped_to_a_c_int(monkeypatch):
    libc = FakeLibc()
    monkeypatch.setattr(ctypes, "CDLL", lambda name: libc)
    memory.reuse_freed_memory(mmap_threshold=1 << 40)
    assert all(0 < value <= 2**31 - 1 for _, value in libc.calls)


def test_refused_setting_and_missing_mallopt_return_false(monkeypatch):
    monkeypatch.setattr(ctypes, "CDLL", lambda name: FakeLibc(answer=0))
    assert memory.reuse_freed_memory() is False

    def no_libc(name):
        raise OSError("no C library")
    monkeypatch.setattr(ctypes, "CDLL", no_libc)
    assert memory.reuse_freed_memory() is False


@pytest.mark.parametrize("kwargs", [{"mmap_threshold": 0}, {"top_pad": -1}, {"mmap_threshold": 1.5}])
def test_bad_arguments_name_the_argument(kwargs):
    with pytest.raises(ValueError, match=next(iter(kwargs))):
        memory.reuse_freed_memory(**kwargs)
