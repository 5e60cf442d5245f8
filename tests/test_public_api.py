"""The public API: every exported name exists, is documented, and is in the API reference."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest

import gsp_householder

ROOT = Path(__file__).resolve().parents[1]
API_DIR = ROOT / "docs" / "api"
PUBLIC = list(gsp_householder.__all__)

_SECTION = re.compile(r"^(?P<title>[A-Z][A-Za-z ]+)\n-{3,}\s*$", re.MULTILINE)
_DIRECTIVE = re.compile(r"^:::\s+(?P<ident>[\w.]+)\s*$", re.MULTILINE)


def _sections(doc: str) -> dict[str, str]:
    """Split a numpydoc docstring into ``{section title: body}``."""
    matches = list(_SECTION.finditer(doc))
    out = {}
    for i, match in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(doc)
        out[match.group("title").strip()] = doc[match.end():end]
    return out


def _documented_names(body: str) -> set[str]:
    """Names declared in a Parameters/Attributes section (``a, b : type`` lines)."""
    names = set()
    for line in body.splitlines():
        if not line or line[0].isspace():
            continue
        head = line.split(" : ")[0] if " : " in line else line.strip()
        for name in head.split(","):
            names.add(name.strip().lstrip("*"))
    return names


def _own_init(cls):
    """The ``__init__`` defined in gsp_householder for ``cls``, or None."""
    for klass in cls.__mro__:
        if klass.__module__.startswith("gsp_householder") and "__init__" in vars(klass):
            return vars(klass)["__init__"]
    return None


def _parameters(obj) -> list[str]:
    """Names of the parameters a user passes (self/cls excluded)."""
    target = obj
    if inspect.isclass(obj):
        target = _own_init(obj)
        if target is None:
            return []
    try:
        sig = inspect.signature(target)
    except (TypeError, ValueError):  # pragma: no cover - builtins without signatures
        return []
    names = []
    for param in sig.parameters.values():
        if param.name in ("self", "cls"):
            continue
        prefix = {param.VAR_POSITIONAL: "*", param.VAR_KEYWORD: "**"}.get(param.kind, "")
        names.append(prefix + param.name)
    return names


def _public_modules() -> list[str]:
    """Public modules and subpackages of gsp_householder, at every depth."""
    modules = []
    for info in pkgutil.walk_packages(gsp_householder.__path__, prefix="gsp_householder."):
        parts = info.name.split(".")
        if any(part.startswith("_") for part in parts):
            continue
        if parts[1] == "experiments" and len(parts) > 2:
            continue  # rendered by the experiments page (show_submodules)
        modules.append(info.name)
    return sorted(modules)


def _directives() -> set[str]:
    idents = set()
    for page in API_DIR.rglob("*.md"):
        idents.update(m.group("ident") for m in _DIRECTIVE.finditer(page.read_text()))
    return idents


def _is_rendered(module_name: str, name: str) -> bool:
    """Whether ``name`` appears on the API page of ``module_name`` (public per mkdocstrings)."""
    module = importlib.import_module(module_name)
    exported = getattr(module, "__all__", None)
    if exported is not None:
        return name in exported
    return not name.startswith("_")


def test_all_is_unique_and_sorted_into_existing_names():
    assert len(PUBLIC) == len(set(PUBLIC)), "duplicate names in gsp_householder.__all__"
    missing = [name for name in PUBLIC if not hasattr(gsp_householder, name)]
    assert not missing, f"names in __all__ that do not exist: {missing}"


def _check_numpydoc(obj, label: str) -> None:
    doc = inspect.getdoc(obj)
    assert doc and doc.strip(), f"{label} has no docstring"
    summary = doc.strip().splitlines()[0]
    assert summary.strip(), f"{label}: the docstring must open with a one-line summary"
    params = _parameters(obj)
    if not params:
        return
    sections = _sections(doc)
    if dataclasses.is_dataclass(obj) and "Parameters" not in sections:
        key = "Attributes"  # a dataclass's fields are its parameters
    else:
        key = "Parameters"
    assert key in sections, (
        f"{label} takes parameters {params} but its docstring has no {key} section")
    documented = _documented_names(sections[key])
    undocumented = [p for p in params if p.lstrip("*") not in documented]
    assert not undocumented, f"{label}: parameters missing from the {key} section: {undocumented}"


@pytest.mark.parametrize("name", PUBLIC)
def test_public_name_has_numpydoc_docstring(name):
    _check_numpydoc(getattr(gsp_householder, name), name)


def _module_members() -> list[tuple[str, str]]:
    """``(module, name)`` for every callable in a public module's ``__all__``."""
    out = []
    for module_name in _public_modules():
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name, None)
            if callable(obj):
                out.append((module_name, name))
    return out


MODULE_MEMBERS = _module_members()


@pytest.mark.parametrize(("module_name", "name"), MODULE_MEMBERS,
                         ids=[f"{m.rsplit('.', 1)[1]}.{n}" for m, n in MODULE_MEMBERS])
def test_module_member_has_numpydoc_docstring(module_name, name):
    """Names public in a submodule are on its API page too, so they are documented alike."""
    module = importlib.import_module(module_name)
    _check_numpydoc(getattr(module, name), f"{module_name}.{name}")


@pytest.mark.parametrize("name", PUBLIC)
def test_public_name_is_in_the_api_reference(name):
    obj = getattr(gsp_householder, name)
    idents = _directives()
    module_name = getattr(obj, "__module__", None) or "gsp_householder"
    candidates = {f"gsp_householder.{name}", f"{module_name}.{name}"}
    if candidates & idents:
        return
    assert module_name in idents, (
        f"{name} is defined in {module_name}, which has no '::: {module_name}' page in docs/api")
    assert _is_rendered(module_name, name), (
        f"{name} is not public in {module_name} (missing from its __all__), so its API page "
        "does not show it")


@pytest.mark.parametrize("module_name", _public_modules())
def test_every_public_module_has_an_api_page(module_name):
    assert module_name in _directives(), (
        f"no API reference page renders {module_name}: add a page under docs/api/ with "
        f"'::: {module_name}' and list it in mkdocs.yml")


def _nav_entries(nav) -> list[str]:
    out = []
    for item in nav:
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            for value in item.values():
                out.extend(_nav_entries(value) if isinstance(value, list) else [value])
    return out


def test_nav_lists_every_page_and_tutorial():
    yaml = pytest.importorskip("yaml")
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    nav = set(_nav_entries(config["nav"]))
    docs = ROOT / "docs"
    pages = {str(p.relative_to(docs)) for p in docs.glob("*.md")}
    pages |= {str(p.relative_to(docs)) for p in API_DIR.rglob("*.md")}
    pages |= {f"tutorials/{p.name}" for p in (ROOT / "tutorials").glob("[0-9]*.py")}
    assert not pages - nav, f"pages missing from the nav of mkdocs.yml: {sorted(pages - nav)}"
    dangling = {entry for entry in nav if not (docs / entry).exists()}
    assert not dangling, f"nav entries without a file: {sorted(dangling)}"
