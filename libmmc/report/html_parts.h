// The HTML report's parts, each a piece of HTML the page (html.cpp) pastes
// in: the SVG bar charts (html_charts.cpp), the tables (html_tables.cpp)
// and each measured card's box of registers (html_card_box.cpp). Internal
// to the HTML view; report/html.h is its interface.
#pragma once

#include "report/tables.h"

#include <string>

namespace mmc::report::html_parts {

// Bar charts, SVG with the given id (see html_report for their classes).
std::string chart_by_interface(const Report& rep, const Group& g, const std::string& id);
std::string chart_by_card(const Report& rep, const Group& g, const std::string& id);
std::string chart_iops(const Report& rep, const Group& g, const std::string& id);
// Empty when no card of the group has a figure of life used.
std::string chart_health(const Report& rep, const Group& g, const std::string& id);

// The tables of the text view, and the state suite's list.
std::string html_seq_table(const Report& rep, const Group& g);
std::string html_random_table(const Report& rep, const Group& g);
std::string html_verdict_table(const Report& rep, const Group& g);
std::string html_probe_table(const Report& rep, const Group& g);
std::string html_health_table(const Report& rep, const Group& g);
std::string html_tune_table(const Report& rep, const Group& g); // mmc-tune's before and after
std::string state_list(const Report& rep, const Group& g);

// "as published: VALUE UNIT (RECORD)" for a figure an imported bundle's
// source printed (key "seq_read", "rand_write_4k", ...), else "": the
// charts' tool tips and the tables' cell titles.
std::string published(const Bundle& b, const std::string& key);

// A card's key registers as a definition list, empty when the bundle
// records none of them.
std::string card_box(const Bundle& b, const std::string& title);

} // namespace mmc::report::html_parts
