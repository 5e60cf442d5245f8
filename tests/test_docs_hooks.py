"""The MkDocs hook's environment for the tutorials' kernels (``docs/hooks/offline.py``)."""

import importlib.util
import os
from pathlib import Path

import pytest

pytest.importorskip("mkdocs")

_HOOK = Path(__file__).resolve().parents[1] / "docs" / "hooks" / "offline.py"


@pytest.fixture
def hook():
    spec = importlib.util.spec_from_file_location("offline_hook", _HOOK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_kernels_get_one_blas_thread_and_the_inline_backend(hook, monkeypatch):
    for name in (*hook._BLAS_THREADS, "MPLBACKEND"):
        monkeypatch.delenv(name, raising=False)
    config = object()
    assert hook.on_config(config) is config
    assert [os.environ[name] for name in hook._BLAS_THREADS] == ["1", "1", "1"]
    assert os.environ["MPLBACKEND"] == "module://matplotlib_inline.backend_inline"


def test_a_thread_count_the_caller_chose_is_kept(hook, monkeypatch):
    for name in hook._BLAS_THREADS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "4")
    hook.on_config(object())
    assert os.environ["OPENBLAS_NUM_THREADS"] == "4"
    assert "OMP_NUM_THREADS" not in os.environ and "MKL_NUM_THREADS" not in os.environ
