"""Cairn's runner of Pulumi Python programs.

python_launcher.py run PROGRAM [ARG...] runs PROGRAM (a file, or a folder
with a __main__.py) with the Pulumi SDK set up from the environment Cairn
gives it: PULUMI_MONITOR, PULUMI_ENGINE, PULUMI_PROJECT, PULUMI_STACK,
PULUMI_ORGANIZATION, PULUMI_ROOT_DIRECTORY, PULUMI_DRY_RUN,
PULUMI_PARALLEL, PULUMI_CONFIG and PULUMI_CONFIG_SECRET_KEYS. It exits
with 32 when the program failed and the reason was logged to the engine.

python_launcher.py plugins prints, as JSON, the pulumi-plugin.json of each
installed distribution that has one, with the distribution's name and
version.
"""

import asyncio
import json
import logging
import os
import runpy
import sys
import traceback

LOGGED_ERROR = 32


def plugins():
    from importlib import metadata

    found = []
    for dist in metadata.distributions():
        for f in dist.files or []:
            if f.name != "pulumi-plugin.json":
                continue
            try:
                plugin = json.loads(f.read_text())
            except (OSError, ValueError):
                continue
            plugin["distribution"] = dist.metadata["Name"]
            plugin["distributionVersion"] = dist.version
            found.append(plugin)
    json.dump(found, sys.stdout)


def run(program, args):
    try:
        import pulumi
        import pulumi.runtime
    except ImportError as e:
        print(
            f"{sys.executable} cannot import the Pulumi SDK ({e}): install it with "
            "pip install pulumi, in the project's virtualenv if it names one",
            file=sys.stderr,
        )
        sys.exit(1)
    env = os.environ
    config = json.loads(env.get("PULUMI_CONFIG") or "{}")
    secret_keys = json.loads(env.get("PULUMI_CONFIG_SECRET_KEYS") or "[]")
    if hasattr(pulumi.runtime, "set_all_config"):
        pulumi.runtime.set_all_config(config, secret_keys)
    else:
        for key, value in config.items():
            pulumi.runtime.set_config(key, value)
    parallel = int(env.get("PULUMI_PARALLEL") or "0")
    pulumi.runtime.configure(
        pulumi.runtime.Settings(
            monitor=env["PULUMI_MONITOR"],
            engine=env["PULUMI_ENGINE"],
            project=env["PULUMI_PROJECT"],
            stack=env["PULUMI_STACK"],
            parallel=parallel,
            dry_run=env.get("PULUMI_DRY_RUN") == "true",
            organization=env.get("PULUMI_ORGANIZATION") or None,
            root_directory=env.get("PULUMI_ROOT_DIRECTORY") or None,
        )
    )
    sys.argv = [program] + args
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    if parallel > 0:
        from concurrent.futures import ThreadPoolExecutor

        loop.set_default_executor(ThreadPoolExecutor(max_workers=parallel * 4))
    # A failed deployment leaves futures nobody awaits; asyncio's complaints
    # about them say nothing to the user.
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)
    code = 0
    try:
        loop.run_until_complete(
            pulumi.runtime.run_in_stack(lambda: runpy.run_path(program, run_name="__main__"))
        )
    except pulumi.RunError as e:
        pulumi.log.error(str(e))
        code = LOGGED_ERROR
    except Exception:
        pulumi.log.error("the program failed:\n" + traceback.format_exc())
        code = LOGGED_ERROR
    finally:
        loop.close()
        sys.stdout.flush()
        sys.stderr.flush()
    sys.exit(code)


if __name__ == "__main__":
    if sys.argv[1:2] == ["plugins"]:
        plugins()
    elif sys.argv[1:2] == ["run"] and len(sys.argv) > 2:
        run(sys.argv[2], sys.argv[3:])
    else:
        sys.exit("usage: python_launcher.py run PROGRAM [ARG...] | plugins")
