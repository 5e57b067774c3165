"""The text table reader (parsers/report/text/tables.py) and line normalisation."""
from __future__ import annotations

from awrscope.parsers.report.text import normalise_lines
from awrscope.parsers.report.text.tables import assign, dash_runs, header_names, is_terminator, read_block


def test_dash_runs_and_terminator():
    assert dash_runs("---- ----- --") == [(0, 4), (5, 10), (11, 13)]
    assert dash_runs("Event  ----") is None
    assert dash_runs("") is None
    term = dash_runs("          -------------------------------------------------------------")
    assert is_terminator(term)
    assert not is_terminator(dash_runs("----------------------------------------------------------"))


def test_stacked_headers_join_per_column():
    lines = [
        "                                                                    Avg",
        "                                                %Time Total Wait   wait    Waits",
        "Event                                    Waits  -outs   Time (s)   (ms)     /txn",
        "--------------------------------- ------------ ------ ---------- ------ --------",
        "log file sync                          535,402      0      1,487      3      0.7",
    ]
    block = read_block(lines, 100)
    (t,) = block.tables
    assert t.columns == ["Event", "Waits", "%Time -outs", "Total Wait Time (s)", "Avg wait (ms)", "Waits /txn"]
    assert t.header_line == 103
    assert t.rows == [(104, ["log file sync", "535,402", "0", "1,487", "3", "0.7"])]


def test_numbers_overflowing_one_character_left_land_in_their_column():
    spans = dash_runs("------------------------- ----- ----- -----")
    # '1.975906811E+11' and '103.6K' are wider than their dashes and start left of them
    assert assign("db file sequential read  103.6K  49.1    .4", spans) == \
        ["db file sequential read", "103.6K", "49.1", ".4"]
    assert assign("log file sync            1419K 100.0      ", spans)[1:3] == ["1419K", "100.0"]


def test_two_word_cells_stay_together():
    # AWR 10.2 Top 5 Timed Events (awr_txt_10204_radtek_oradb1_base01, lines 58 and 60)
    spans = dash_runs("------------------------------ ------------ ----------- ------ ------ ----------")
    cells = assign("db file sequential read           5,844,853      15,473      3   28.4   User I/O", spans)
    assert cells == ["db file sequential read", "5,844,853", "15,473", "3", "28.4", "User I/O"]
    spans = dash_runs("--------------- ------- ------- ------- ------- ------- ------- ------- --------")
    assert assign("LGWR                 1M     0.0      0M    555M    29.0   .154M  103.7K 385.96us", spans)[-1] \
        == "385.96us"


def test_group_label_dashes_are_not_part_of_header_names():
    header = ["               ---------- Read --------- --------- Write -------- --- Wait ----",
              "                 Data  Requests    Data   Data  Requests    Data          Avg",
              "Function        Volume     /sec  Vol/sec Volume     /sec  Vol/sec  Count Tm(ms)"]
    spans = dash_runs("--------------- ------ -------- -------- ------ -------- -------- ------ ------")
    names = header_names(header, spans)
    assert names[0] == "Function"
    assert names[1] == "Data Volume"
    assert names[-1] == "Wait Avg Tm(ms)" or names[-1] == "Avg Tm(ms)"
    assert not any("--" in n for n in names)


def test_page_break_repeated_header_continues_the_table():
    lines = [
        "Event                       Waits",
        "------------------------ --------",
        "db file sequential read     1,000",
        "",
        "Event                       Waits",
        "------------------------ --------",
        "log file sync                 500",
    ]
    block = read_block(lines, 1)
    assert len(block.tables) == 1
    assert [c[0] for _, c in block.tables[0].rows] == ["db file sequential read", "log file sync"]


def test_notes_are_collected_and_not_rows():
    lines = ["-> ordered by wait time desc, waits desc",
             "   (idle events last)",
             "",
             "Event                       Waits",
             "------------------------ --------",
             "log file sync                 500"]
    block = read_block(lines, 1)
    assert block.notes == ["ordered by wait time desc, waits desc (idle events last)"]
    assert len(block.tables[0].rows) == 1


def test_output_artefacts_are_blanked_keeping_line_numbers():
    text = "a\nOUTPUT\n" + "-" * 80 + "\nb\f\nc\r\n"
    lines = normalise_lines(text)
    assert lines[0] == "a" and lines[1] == "" and lines[2] == "" and lines[3] == "b" and lines[4] == "c"
    assert len(lines) == 5


def test_a_cell_is_its_column_slice_with_white_space_squeezed():
    """The fast path of assign() squeezes white space without a list per cell: for any line whose tokens stay
    inside their columns, each cell must be " ".join(slice.split()), whatever white space (runs of spaces, tabs,
    NBSP, line separators) or control characters the slice holds."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    spans = [(0, 10), (11, 20), (21, 30)]

    @settings(max_examples=3000, deadline=None)
    @given(st.lists(st.text(alphabet=st.sampled_from(list("ab1.,  \t\xa0\u2028\x01")), max_size=9),
                    min_size=3, max_size=3))
    def check(parts):
        # each part padded into its column; the column gaps are spaces, so no token crosses a border
        line = "".join(p.ljust(b - a)[:b - a] + " " for p, (a, b) in zip(parts, spans)).rstrip(" ")
        assert assign(line, spans) == [" ".join(line[a:b].split()) for a, b in spans]

    check()
