# np.genfromtxt for numeric dtypes and names=None, following NumPy's
# genfromtxt and _iotools (LineSplitter, StringConverter in its default
# loose mode). gpy's language has no open(), so a file path is read through
# the native np.loadtxt, which parses exactly the well-formed files (no
# missing or malformed fields, no ragged rows); a sequence of lines is parsed
# here with genfromtxt's full rules.


def _gft_str2bool(value):
    value = value.upper()
    if value == "TRUE":
        return True
    if value == "FALSE":
        return False
    raise ValueError("Invalid boolean")


def _gft_parser(dt):
    # StringConverter's function and default (the filling value) per kind.
    kind = dt.kind
    if kind == "b":
        return _gft_str2bool, False
    if kind in "iu":
        return int, -1
    if kind == "f":
        return float, nan
    if kind == "c":
        return complex, complex(nan, 0)
    raise NotImplementedError("gpy's genfromtxt reads numeric and bool dtypes, not " + str(dt))


def _gft_split(line, delimiter, comments, autostrip):
    if comments is not None:
        line = line.split(comments)[0]
    line = line.strip(" \r\n")
    if not line:
        return []
    values = line.split(delimiter)
    return [v.strip() for v in values] if autostrip else values


def _gft_fills(filling_values, nbcols, usecols):
    # One filling value (None: the dtype's default) per column.
    if filling_values is None:
        return [None] * nbcols
    if isinstance(filling_values, dict):
        fills = [None] * nbcols
        for key, val in filling_values.items():
            if usecols and key in usecols:
                key = usecols.index(key)
            fills[key] = val
        return fills
    if isinstance(filling_values, (list, tuple)):
        fills = list(filling_values)[:nbcols]
        return fills + [None] * (nbcols - len(fills))
    return [filling_values] * nbcols


def _gft_infer(rows, nbcols):
    # dtype=None: StringConverter's upgrade order bool, int, float, complex per column.
    kinds = []
    for j in range(nbcols):
        for func, dt in ((_gft_str2bool, bool_), (int, int64), (float, float64), (complex, complex128)):
            try:
                for row in rows:
                    func(row[j])
                kinds.append(dt)
                break
            except ValueError:
                pass
        else:
            raise NotImplementedError("gpy's genfromtxt(dtype=None) infers numeric and bool columns only")
    if len(set(kinds)) > 1:
        raise NotImplementedError("gpy's genfromtxt(dtype=None) cannot build a structured array for columns of different types")
    return dtype(kinds[0] if kinds else float64)


def _gft_lines(lines, dt, comments, delimiter, skip_header, skip_footer, filling_values, usecols,
               autostrip, invalid_raise, max_rows):
    lines = list(lines)
    k = skip_header
    # The first line with values (blank and comment-only lines skipped) fixes the column count.
    while k < len(lines) and not _gft_split(lines[k], delimiter, comments, autostrip):
        k += 1
    first_values = _gft_split(lines[k], delimiter, comments, autostrip) if k < len(lines) else []
    if usecols is not None:
        usecols = list(usecols) if isinstance(usecols, (list, tuple)) or ndim(usecols) > 0 else [usecols]
        usecols = [int(c) + len(first_values) if c < 0 else int(c) for c in usecols]
    nbcols = len(usecols or first_values)
    rows = []
    invalid = []
    for i in range(k, len(lines)):
        values = _gft_split(lines[i], delimiter, comments, autostrip)
        if not values:
            continue
        if usecols:
            try:
                values = [values[c] for c in usecols]
            except IndexError:
                invalid.append((i - k + skip_header + 1, len(values)))
                continue
        elif len(values) != nbcols:
            invalid.append((i - k + skip_header + 1, len(values)))
            continue
        rows.append(values)
        if len(rows) == max_rows:
            break
    if invalid:
        # NumPy forgives the invalid rows that skip_footer drops.
        nbrows = len(rows) + len(invalid) - skip_footer
        if skip_footer > 0:
            skipped = len([1 for line_no, _ in invalid if line_no > nbrows + skip_header])
            invalid = invalid[:len(invalid) - skipped]
            skip_footer -= skipped
        if invalid and invalid_raise:
            raise ValueError("\n".join(["Some errors were detected !"] + ["    Line #" + str(line_no) + " (got " + str(n) + " columns instead of " + str(nbcols) + ")" for line_no, n in invalid]))
    if skip_footer > 0:
        rows = rows[:-skip_footer]
    if dt is None:
        dt = _gft_infer(rows, nbcols)
    func, default = _gft_parser(dt)
    fills = [default if f is None else f for f in _gft_fills(filling_values, nbcols, usecols)]

    def convert(v, fill):
        # loose=True: whatever does not convert (missing or malformed) is the fill.
        try:
            return func(v)
        except ValueError:
            return fill

    return array([tuple(convert(v, fills[j]) for j, v in enumerate(row)) for row in rows], dtype=dt)


def _gft_file(fname, dt, comments, delimiter, skip_header, skip_footer, usecols, max_rows):
    if isinstance(delimiter, str) and len(delimiter) > 1:
        raise NotImplementedError("gpy's genfromtxt reads a file with a one-character delimiter only; pass its lines as a list of strings")
    kind = None if dt is None else dt.kind
    if kind is not None:
        _gft_parser(dt)
    load_dt = int64 if kind is None else float64 if kind == "b" else dt
    try:
        out = loadtxt(fname, dtype=load_dt, comments=comments, delimiter=delimiter, skiprows=skip_header,
                      usecols=usecols, max_rows=max_rows, ndmin=2)
    except ValueError as e:
        raise NotImplementedError("gpy's genfromtxt reads files through np.loadtxt, which cannot parse " + repr(fname) +
                                  " (" + str(e) + "); for missing or malformed values or ragged rows pass its lines as a list of strings")
    if kind == "b":
        # genfromtxt's bool reads only 'true'/'false': loadtxt parsed numbers, all False.
        out = zeros(out.shape, dtype=bool_)
    if skip_footer > 0:
        out = out[:out.shape[0] - skip_footer] if skip_footer < out.shape[0] else out[:0]
    # genfromtxt builds its array from a list of rows: no rows is shape (0,).
    return out.reshape(0) if out.shape[0] == 0 else out


def _gft_dtype(dt):
    # np.dtype, which genfromtxt's own dtype parameter hides.
    return dtype(dt)


def genfromtxt(fname, dtype=float, comments="#", delimiter=None, skip_header=0, skip_footer=0, converters=None,
               missing_values=None, filling_values=None, usecols=None, names=None, excludelist=None,
               deletechars=None, replace_space="_", autostrip=False, case_sensitive=True, defaultfmt="f%i",
               unpack=None, usemask=False, loose=True, invalid_raise=True, max_rows=None, encoding=None, *,
               ndmin=0, like=None):
    if ndmin not in (0, 1, 2):
        raise ValueError("Illegal value of ndmin keyword: " + str(ndmin))
    if max_rows is not None:
        if skip_footer:
            raise ValueError("The keywords 'skip_footer' and 'max_rows' can not be specified at the same time.")
        if max_rows < 1:
            raise ValueError("'max_rows' must be at least 1.")
    for name, value in (("converters", converters), ("names", names), ("usemask", usemask), ("loose", not loose)):
        if value:
            raise NotImplementedError("gpy's genfromtxt does not support " + name + "=" + repr(value if name != "loose" else loose))
    dt = None if dtype is None else _gft_dtype(dtype)
    delimiter = delimiter or None
    if isinstance(fname, str):
        out = _gft_file(fname, dt, comments, delimiter, skip_header, skip_footer, usecols, max_rows)
    else:
        # missing_values only change the masks of usemask=True (loose conversion fills anything unparsable).
        out = _gft_lines(fname, dt, comments, delimiter, skip_header, skip_footer, filling_values, usecols,
                         autostrip, invalid_raise, max_rows)
    # NumPy's _ensure_ndmin_ndarray.
    if out.ndim > ndmin:
        out = squeeze(out)
    if out.ndim < ndmin:
        out = atleast_1d(out) if ndmin == 1 else atleast_2d(out).T
    return out.T if unpack else out
