// Exact-output tests of the text views over the captured sysfs trees in
// tests/data/sysfs (as util-linux tests lsblk): mmc-info's card list and
// card view, and mmc-bus's view of each host, plain and verbose. The
// expected text is in tests/data/views/<fixture>.<view>.txt.
//
// After an intended change of a view, regenerate the files and review the
// difference before committing it (expected_view.h):
//     MMCKIT_UPDATE_VIEWS=1 build/tests/unit_tests --gtest_filter='ViewsText*:BenchReportViews*'
//     git diff tests/data/views
#include "bus/doctor.h"
#include "dev/bus_evidence.h"
#include "dev/discovery.h"
#include "dev/identify.h"
#include "views/bus_view.h"
#include "views/device_view.h"
#include "expected_view.h"
#include "sysfs_fixture.h"

#include <gtest/gtest.h>

namespace {

using namespace mmc;

const char* const fixtures[] = {"sd-qemu", "emmc-cm4", "sd-badname", "usb-reader"};

void expect_view(const std::string& fixture, const std::string& view, const std::string& actual)
{
    ::expect_view(fixture + "." + view + ".txt", actual);
}

// The fixed kernel version the bus doctor judges caps by: not this host's.
constexpr const char* kernel = "6.1.0";

std::string bus_view(const dev::SysRoots& roots, bool verbose)
{
    const auto cards = dev::list_cards(roots);
    std::string out;
    for (const auto& host : dev::list_hosts(roots)) {
        const dev::Card* card = nullptr;
        for (const auto& c : cards)
            if (c.host.name == host.name) card = &c;
        std::optional<dev::Identified> id;
        if (card) id = dev::identify(*card, roots, {false});
        const auto evidence = dev::gather_bus_evidence(host, card, id ? &id->registers : nullptr, roots, kernel);
        out::BusReport r{bus::diagnose(evidence), host.controller.describe(), evidence.kernel_message, std::nullopt, {},
                         evidence.dt, {}, {}};
        out += (out.empty() ? "" : "\n") + out::bus_text(r, verbose);
    }
    return out;
}

} // namespace

// What the views below cover: a card on an MMC host in three trees; the USB
// reader's card is on no MMC host, so mmc-info lists none and mmc-bus has
// no host to show.
TEST(ViewsText, TheFixturesHoldTheCardsTheViewsShow)
{
    for (const char* f : fixtures) {
        const auto roots = sysfs_fixture(f);
        const bool usb = std::string(f) == "usb-reader";
        EXPECT_EQ(dev::list_cards(roots).size(), usb ? 0u : 1u) << f;
        EXPECT_EQ(dev::list_hosts(roots).empty(), usb) << f;
    }
}

TEST(ViewsText, MmcInfoCardList)
{
    for (const char* f : fixtures) {
        const auto roots = sysfs_fixture(f);
        expect_view(f, "info-list", out::card_list_text(dev::list_cards(roots), roots));
    }
}

TEST(ViewsText, MmcInfoCardView)
{
    for (const char* f : fixtures) {
        const auto roots = sysfs_fixture(f);
        for (bool verbose : {false, true}) {
            std::string text;
            for (const auto& card : dev::list_cards(roots)) {
                const auto id = dev::identify(card, roots, {false});
                text += (text.empty() ? "" : "\n") +
                        out::device_text(id.card, roots, id.gathered, id.registers, {verbose, false});
            }
            if (text.empty()) continue; // no card in this tree: the list says so
            expect_view(f, verbose ? "info-card-verbose" : "info-card", text);
        }
    }
}

TEST(ViewsText, MmcBusView)
{
    for (const char* f : fixtures) {
        const auto roots = sysfs_fixture(f);
        if (dev::list_hosts(roots).empty()) continue;
        expect_view(f, "bus", bus_view(roots, false));
        expect_view(f, "bus-verbose", bus_view(roots, true));
    }
}
