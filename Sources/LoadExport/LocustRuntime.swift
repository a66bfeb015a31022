/// The part of every locustfile that does not depend on the flow: secrets from the environment,
/// placeholders filled at run time, a small JSONPath walker, the checks of `expect:`, and one
/// step sent (polling `until:`) with its outcome reported to Locust.
enum LocustRuntime {
    static let helpers = #"""
        def _read_secrets():
            values, missing = {}, []
            for name, variables in SECRET_VARIABLES.items():
                value = next((os.environ[v] for v in variables if v in os.environ), None)
                if value is None:
                    missing.append(name + " (" + " or ".join("$" + v for v in variables) + ")")
                else:
                    values[name] = value
            if missing:
                sys.exit("locustfile: set the environment variables of these secrets: " + ", ".join(missing))
            return values


        SECRETS = _read_secrets()
        _PLACEHOLDER = re.compile(r"\{\{(secret\.)?([^{}]+)\}\}")


        def _fill(text, captured, how):
            """The template with {{secret.NAME}} and {{name}} (a captured value) put in; others stay as written."""
            def value(match):
                name = match.group(2)
                if match.group(1):
                    found = SECRETS.get(name) if name in SECRET_VARIABLES else None
                elif name in CAPTURE_NAMES:
                    found = captured.get(name)
                else:
                    found = None
                if found is None:
                    return match.group(0)
                if how == "url":
                    return quote(found, safe="")
                if how == "json":
                    return json.dumps(found)[1:-1]
                return found
            return _PLACEHOLDER.sub(value, text)


        def _select(segments, root):
            """Every value a JSONPath (as segments) selects in root."""
            nodes = [root]
            for kind, selectors in segments:
                if kind == "descendant":
                    nodes = [node for start in nodes for node in _descendants(start)]
                found = []
                for node in nodes:
                    for selector in selectors:
                        found.extend(_children(selector, node))
                nodes = found
            return nodes


        def _descendants(node):
            out = [node]
            children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else []
            for child in children:
                out.extend(_descendants(child))
            return out


        def _children(selector, node):
            what = selector[0]
            if what == "name":
                return [node[selector[1]]] if isinstance(node, dict) and selector[1] in node else []
            if what == "index":
                if isinstance(node, list) and -len(node) <= selector[1] < len(node):
                    return [node[selector[1]]]
                return []
            if what == "wildcard":
                return list(node.values()) if isinstance(node, dict) else list(node) if isinstance(node, list) else []
            if what == "slice" and isinstance(node, list):
                if selector[3] == 0:
                    return []
                return node[slice(selector[1], selector[2], selector[3])]
            return []


        def _is_number(value):
            return isinstance(value, (int, float)) and not isinstance(value, bool)


        def _same(a, b):
            """JSON equality: numbers by value, true is not 1."""
            if _is_number(a) and _is_number(b):
                return a == b
            if type(a) is not type(b):
                return False
            if isinstance(a, list):
                return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
            if isinstance(a, dict):
                return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
            return a == b


        def _text(value):
            if isinstance(value, str):
                return value
            if _is_number(value):
                return json.dumps(value)
            return None


        def _kind(value, kind):
            return {
                "string": isinstance(value, str), "number": _is_number(value),
                "integer": _is_number(value) and float(value).is_integer() and not isinstance(value, float),
                "boolean": isinstance(value, bool), "array": isinstance(value, list),
                "object": isinstance(value, dict), "null": value is None,
            }[kind]


        def _holds(predicate, value, present=True):
            """Whether the predicate of an expect: holds of a value (absent: only exists false holds)."""
            what, wanted = predicate
            if not present:
                return what == "exists" and wanted is False
            if what == "exists":
                return wanted
            if what == "equals":
                return _same(value, wanted)
            if what == "notEquals":
                return not _same(value, wanted)
            if what in ("lt", "le", "gt", "ge"):
                if not _is_number(value):
                    return False
                return {"lt": value < wanted, "le": value <= wanted, "gt": value > wanted, "ge": value >= wanted}[what]
            if what == "matches":
                text = _text(value)
                return text is not None and re.search(wanted, text) is not None
            if what == "kind":
                return _kind(value, wanted)
            if what == "count":
                if isinstance(value, (list, dict, str)):
                    return _holds(wanted, len(value))
                return False
            if what == "contains":
                if isinstance(value, list):
                    return any(_same(item, wanted) for item in value)
                return isinstance(value, str) and isinstance(wanted, str) and wanted in value
            if what == "includesAll":
                return isinstance(value, list) and all(any(_same(item, w) for item in value) for w in wanted)
            if what == "startsWith":
                text = _text(value)
                return text is not None and text.startswith(wanted)
            if what == "endsWith":
                text = _text(value)
                return text is not None and text.endswith(wanted)
            if what == "statusIn":
                return _is_number(value) and any(value == n if k == "code" else value // 100 == n for k, n in wanted)
            return False


        def _header_holds(predicate, values):
            """A header's values: any one for a comparison, every one for notEquals."""
            what, wanted = predicate
            if what == "exists":
                return bool(values) == wanted
            if what == "count":
                return _holds(wanted, len(values))
            numeric = what in ("lt", "le", "gt", "ge") or (what in ("equals", "notEquals") and _is_number(wanted))

            def read(text):
                if numeric:
                    try:
                        number = float(text)
                        return int(number) if number.is_integer() and "." not in text else number
                    except ValueError:
                        return text
                return text
            if what == "notEquals":
                return bool(values) and all(_holds(predicate, read(v)) for v in values)
            return any(_holds(predicate, read(v)) for v in values)


        def _header_values(response, name):
            """Every value of a header (a name may repeat), as the server sent them."""
            raw = getattr(getattr(response, "raw", None), "headers", None)
            if raw is not None and hasattr(raw, "getlist"):
                return raw.getlist(name)
            return [response.headers[name]] if name in response.headers else []


        def _body(response):
            try:
                return True, json.loads(response.content) if response.content else None
            except ValueError:
                return False, None


        def _holds_of(check, response):
            subject, path, singular, predicate, _ = check
            if subject == "status":
                return _holds(predicate, response.status_code)
            if subject == "bodySize":
                return _holds(predicate, len(response.content))
            if subject == "time":
                return _holds(predicate, round(response.elapsed.total_seconds() * 1000))
            if subject == "header":
                return _header_holds(predicate, _header_values(response, path))
            parsed, root = _body(response)
            if not parsed or not response.content:
                return predicate == ["exists", False]
            found = _select(path, root)
            if singular:
                return _holds(predicate, found[0] if found else None, present=bool(found))
            return _holds(predicate, found)


        def _failures(checks, response):
            """What each failing check says."""
            return [check[4] for check in checks if not _holds_of(check, response)]


        def _captured(selector, response):
            """A capture's value as text (strings as they are, other JSON compact); None when absent."""
            kind, argument = selector
            if kind == "status":
                return str(response.status_code)
            if kind == "header":
                return response.headers.get(argument)
            if kind == "body":
                return response.text
            parsed, root = _body(response)
            found = _select(argument, root) if parsed and response.content else []
            if not found or found[0] is None:
                return None
            value = found[0]
            return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))


        def _send(client, captured, step):
            """Sends one step, again while its until: does not hold; marks the request failed when
            a check does not hold, and keeps what it captures. False stops the flow."""
            started = time.monotonic()
            body_how = "json" if step["json"] else "text"
            while True:
                headers = {name: _fill(value, captured, "text") for name, value in step["headers"].items()}
                body = _fill(step["body"], captured, body_how).encode() if step["body"] is not None else None
                with client.request(step["method"], _fill(step["url"], captured, "url"), headers=headers, data=body,
                                    name=step["name"], catch_response=True) as response:
                    if step["until"] and _failures(step["until"], response):
                        if time.monotonic() - started + step["interval"] > step["limit"]:
                            response.failure("'until' did not hold within %gs: %s" % (step["limit"], "; ".join(_failures(step["until"], response))))
                            return False
                        response.success()
                        time.sleep(step["interval"])
                        continue
                    if step["checks"]:
                        failed = _failures(step["checks"], response)
                    else:
                        failed = [] if response.status_code < 400 else ["status %d" % response.status_code]
                    if failed:
                        response.failure("; ".join(failed) + " (status %d)" % response.status_code)
                        return False
                    response.success()
                    for name, selector in step["captures"]:
                        value = _captured(selector, response)
                        if value is not None:
                            captured[name] = value
                    return True
        """#
}
