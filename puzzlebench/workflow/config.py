"""The workflow config: read a study file (duplicate keys refused) and check it against its schema.

The schema is ``config.schema.yaml`` beside this module, a JSON schema checked with
jsonschema (the validator behind ``snakemake.utils.validate``).  Every problem is a
:class:`~puzzlebench.errors.PuzzleError` of one line naming the key, the value and
the rule (the key's ``description`` in the schema).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from functools import lru_cache
from pathlib import Path

import yaml

from ..errors import PuzzleError

SCHEMA_PATH = Path(__file__).with_name("config.schema.yaml")


@lru_cache(maxsize=1)
def schema() -> dict:
    return yaml.safe_load(SCHEMA_PATH.read_text())


def known_keys() -> list[str]:
    return sorted(schema()["properties"])


class _UniqueKeyLoader(yaml.SafeLoader):
    """A YAML loader that refuses a mapping holding one key twice (safe_load keeps the last)."""


def _mapping(loader: _UniqueKeyLoader, node: yaml.MappingNode) -> dict:
    seen = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, Hashable):
            raise PuzzleError(f"a {'list' if isinstance(key, list) else 'mapping'} used as a key: a key is a "
                              f"name", line=key_node.start_mark.line + 1)
        if key in seen:
            raise PuzzleError(f"key {key!r} appears twice (first at line {seen[key]})",
                              line=key_node.start_mark.line + 1)
        seen[key] = key_node.start_mark.line + 1
    return loader.construct_mapping(node)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def load_study(path) -> dict:
    """The config mapping of the YAML (or JSON) file at ``path``; duplicate keys are an error."""
    try:
        data = Path(path).read_bytes()
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        column = err.start - data.rfind(b"\n", 0, err.start)
        raise PuzzleError(f"not UTF-8 text (byte 0x{data[err.start]:02x} at column {column})", path=str(path),
                          line=data.count(b"\n", 0, err.start) + 1) from None
    try:
        config = yaml.load(text, Loader=_UniqueKeyLoader)
    except PuzzleError as err:
        raise err.locate(str(path)) from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        raise PuzzleError(f"not valid YAML: {getattr(err, 'problem', None) or err}", path=str(path),
                          line=mark.line + 1 if mark else None) from None
    if config is None:
        return {}
    if not isinstance(config, dict):
        raise PuzzleError("the config is not a mapping of keys to values", path=str(path))
    return config


def _where(path) -> str:
    """``seeds[1]``, ``analysis.shift`` -- a key path as a user writes it."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _non_finite(value, path=()):
    """The key path of the first NaN or infinite number in ``value`` (JSON schema lets NaN through)."""
    if isinstance(value, float) and not math.isfinite(value):
        return path
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found = _non_finite(item, (*path, key))
        if found is not None:
            return found
    return None


def merged(base: dict, override: dict) -> dict:
    """``override`` on top of ``base``, mappings merged key by key (as Snakemake merges config files)."""
    out = dict(base)
    for key, value in override.items():
        out[key] = merged(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def _as_snakemake_reads(text: str):
    """``text`` read as Snakemake reads a top-level ``--config`` value: an integer, else a number,
    else ``True``/``False``, else the text itself."""
    for parse in (int, float):
        try:
            return parse(text)
        except ValueError:
            pass
    return {"True": True, "False": False}.get(text, text)


def _items_read(value):
    if isinstance(value, str):
        return _as_snakemake_reads(value)
    if isinstance(value, Mapping):
        return {key: _items_read(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_items_read(item) for item in value]
    return value


def command_line_values(values: Mapping) -> dict:
    """The ``--config KEY=VALUE`` values as a user means them.

    Snakemake reads a top-level value as an integer, a number, ``True``/``False`` or text
    (``time_limit=30`` arrives as 30), but a bracketed list or a mapping with YAML's base
    loader, which makes every item a string (``seeds=[0,1,2]`` arrives as ``['0', '1', '2']``).
    Here every item inside a list or mapping is read the way Snakemake reads a top-level
    value; top-level values are kept as Snakemake read them.  Only for the command line:
    the values of config files keep their YAML types and are checked as they are.
    """
    return {key: _items_read(value) if isinstance(value, (Mapping, list)) else value
            for key, value in values.items()}


def validate_config(config) -> None:
    """Refuse a config that breaks the schema, with one line naming the key, the value and the rule."""
    import jsonschema
    if not isinstance(config, dict):
        raise PuzzleError(f"the config must be a mapping of keys to values, not {config!r}")
    unknown = sorted(set(map(str, config)) - set(known_keys()))
    if unknown:
        raise PuzzleError(f"unknown config key(s): {', '.join(unknown)} (known: {', '.join(known_keys())})")
    if (where := _non_finite(config)) is not None:
        key = where[0]
        raise PuzzleError(f"config {_where(where)} = {_value(where, config)}: must be "
                          f"{schema()['properties'][key].get('description', 'a finite number')}")
    validator = jsonschema.Draft202012Validator(schema())
    error = min(validator.iter_errors(config), key=lambda e: (list(e.path)[:1], -len(e.path)), default=None)
    if error is None:
        return
    path = list(error.absolute_path)
    if not path:  # a required key is missing
        missing = [key for key in error.validator_value if key not in config]
        raise PuzzleError(f"the config names no {', '.join(missing)}")
    rule = schema()["properties"][path[0]].get("description") or error.message
    raise PuzzleError(f"config {_where(path)} = {_value(path, config)}: must be {rule}")


def _value(path, config) -> str:
    value = config
    for part in path:
        value = value[part]
    return repr(value)


_SCHEMA_URI = "urn:puzzlebench:config-schema"


def _node(ref: str) -> dict:
    """The schema node a local ``$ref`` (``#/$defs/seed``) names."""
    node = schema()
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    return node


def _rule(node: dict) -> str | None:
    """A schema node's description, or that of the node its ``$ref`` names."""
    while node is not None:
        if "description" in node:
            return node["description"]
        node = _node(node["$ref"]) if "$ref" in node else None
    return None


def validate_job(job: dict, label: str = "--job") -> None:
    """Refuse a batch job (the JSON of :meth:`puzzlebench.run.jobs.Job.to_json`) that breaks its schema,
    ``$defs/job`` of the config schema, whose keys follow the rules of the config keys they are planned
    from: one line naming ``label``, the key, the value and the rule."""
    import jsonschema
    from referencing import Registry
    from referencing.jsonschema import DRAFT202012
    if not isinstance(job, dict):
        raise PuzzleError(f"{label}: expected a JSON object, not {job!r}")
    properties = schema()["$defs"]["job"]["properties"]
    path = _non_finite(job)
    if path is None:
        registry = Registry().with_resource(_SCHEMA_URI, DRAFT202012.create_resource(schema()))
        validator = jsonschema.Draft202012Validator({"$ref": f"{_SCHEMA_URI}#/$defs/job"}, registry=registry)
        error = min(validator.iter_errors(job), key=lambda e: (list(e.path)[:1], -len(e.path)), default=None)
        if error is None:
            return
        path = list(error.absolute_path)
        if not path:
            raise PuzzleError(f"{label}: {error.message}")
    rule = _rule(properties[path[0]]) if path[0] in properties else None
    raise PuzzleError(f"{label}: {_where(path)} = {_value(path, job)}: must be {rule or 'a finite number'}")
