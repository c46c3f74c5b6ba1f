// One card measured in a USB reader and in a slot: mmc-report
// recognises it without hand labels (report/tables.h, same_card) and shows
// its rows side by side, with their attachments in text, JSON and CSV.
#include "old_store.h"
#include "report/export.h"
#include "report/html.h"
#include "report/schema.h"
#include "report/store.h"
#include "report/tables.h"
#include "report/text.h"

#include <filesystem>
#include <gtest/gtest.h>

using namespace mmc::report;

namespace {

// A card in an MMC slot: its CID read, its label from the CID.
Bundle in_slot(const std::string& host, const std::string& ptid, uint64_t sectors = 31116288)
{
    Bundle b;
    b.card.label = "SanDisk SL16G 16GB";
    b.card.serial = "0x0eace07e";
    b.card.sectors = sectors;
    b.card.partition_table_id = ptid;
    b.registers = {{"registers", {{"cid", {{"hex", "035344534c31364780eace07e0013b00"}}}}}};
    b.host.label = host;
    b.attachment = "slot mmc0 SDR104 4-bit";
    b.results.seq_read_mb_s = 80;
    b.results.rand_read_iops["4k"] = 2000;
    return b;
}

// The same card in a USB reader: no CID, a label from its size alone.
Bundle in_reader(const std::string& host, const std::string& ptid, uint64_t sectors = 31116288)
{
    Bundle b;
    b.card.label = "16GB";
    b.card.sectors = sectors;
    b.card.partition_table_id = ptid;
    b.host.label = host;
    b.attachment = "USB 2.0 reader, usb-storage";
    b.reader = {{"chip", "Genesys Logic GL827L"}, {"usb_id", "05e3:0723"}};
    b.results.seq_read_mb_s = 38;
    b.results.rand_read_iops["4k"] = 1500;
    return b;
}

Bundle other(const std::string& host)
{
    Bundle b;
    b.card.label = "Kingston 8GB";
    b.host.label = host;
    b.results.seq_read_mb_s = 20;
    return b;
}

} // namespace

TEST(ReportSameCard, TheRule)
{
    EXPECT_TRUE(same_card(in_slot("a", "1a2b3c4d"), in_reader("a", "1a2b3c4d"))) << "sectors and disk identifier agree";
    EXPECT_FALSE(same_card(in_slot("a", "1a2b3c4d"), in_reader("a", "99999999"))) << "another disk identifier";
    EXPECT_FALSE(same_card(in_slot("a", "1a2b3c4d"), in_reader("a", "1a2b3c4d", 31116289))) << "another size";
    EXPECT_FALSE(same_card(in_slot("a", ""), in_reader("a", ""))) << "a size alone is every card of a model's";
    Bundle x = in_slot("a", "1a2b3c4d"), y = in_slot("b", "ffffffff");
    EXPECT_TRUE(same_card(x, y)) << "the CID decides when both have one (the card was repartitioned)";
    y.registers["registers"]["cid"]["hex"] = "035344534c31364780eace07f0013b00";
    EXPECT_FALSE(same_card(x, y));
    Bundle g1 = in_reader("a", ""), g2 = in_reader("a", "");
    g1.card.label = g2.card.label = "blue card";
    g1.card.label_given = g2.card.label_given = true;
    EXPECT_TRUE(same_card(g1, g2)) << "labels the user gave both";
    g2.card.label = "red card";
    EXPECT_FALSE(same_card(g1, g2));
}

TEST(ReportSameCard, InAReaderAndInASlotOnOneHostAdjacentRows)
{
    std::vector<Bundle> v{in_slot("laptop", "1a2b3c4d"), other("laptop"), in_reader("laptop", "1a2b3c4d")};
    const Report r = build_report(std::move(v));
    ASSERT_EQ(r.groups.size(), 1u);
    const Group& g = r.groups[0];
    // The reader's row takes the card's label from the slot's CID and sits
    // next to it; the rows are told apart by their attachments.
    EXPECT_EQ(g.cards, (std::vector<std::string>{"SanDisk SL16G 16GB (slot mmc0 SDR104 4-bit)",
                                                 "SanDisk SL16G 16GB (USB 2.0 reader, usb-storage)", "Kingston 8GB"}));
    const auto order = g.in_row_order();
    ASSERT_EQ(order.size(), 3u);
    EXPECT_EQ(g.members[order[0]], 0);
    EXPECT_EQ(g.members[order[1]], 2);
    EXPECT_EQ(g.members[order[2]], 1);

    const std::string text = text_report(r, false);
    // In the random I/O table: the slot's line, then the reader's, each with its attachment column.
    const auto slot = text.find("SanDisk SL16G 16GB (slot mmc0 SDR104 4-bit) @ laptop       slot mmc0 SDR104 4-bit ");
    ASSERT_NE(slot, std::string::npos) << text;
    const auto next = text.find('\n', slot) + 1;
    EXPECT_EQ(text.find("SanDisk SL16G 16GB (USB 2.0 reader, usb-storage) @ laptop  USB 2.0 reader, usb-storage ", next), next + 2)
        << "the reader's line follows the slot's\n" << text;
    EXPECT_NE(text.find("Attachment"), std::string::npos);

    const json j = json_report(r, {});
    const json& rows = j["groups"][0]["results"];
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0]["attachment"], "slot mmc0 SDR104 4-bit");
    EXPECT_TRUE(rows[0]["reader"].is_null());
    EXPECT_EQ(rows[1]["attachment"], "USB 2.0 reader, usb-storage");
    EXPECT_EQ(rows[1]["reader"]["chip"], "Genesys Logic GL827L");
    EXPECT_TRUE(rows[2]["attachment"].is_null());

    const std::string csv = csv_report(r);
    const auto a = csv.find(",slot mmc0 SDR104 4-bit\r\n"), b = csv.find(",\"USB 2.0 reader, usb-storage\"\r\n");
    ASSERT_NE(a, std::string::npos) << csv;
    ASSERT_NE(b, std::string::npos) << csv;
    EXPECT_LT(a, b);
    EXPECT_EQ(csv.find("Kingston", a) > b, true) << "the other card's row comes after both\n" << csv;
}

TEST(ReportSameCard, TheHtmlPageHasTheAttachmentColumnToo)
{
    const Report r = build_report({in_slot("laptop", "1a2b3c4d"), in_reader("laptop", "1a2b3c4d")});
    const std::string page = html_report(r, {});
    // The random I/O table: the header, then the slot's row and the reader's, each with its attachment.
    const auto table = page.find("<table class=\"random\">");
    ASSERT_NE(table, std::string::npos);
    const auto header = page.find("<th scope=\"col\">Card @ host</th><th scope=\"col\">Attachment</th>", table);
    ASSERT_NE(header, std::string::npos) << page.substr(table, 600);
    const auto slot = page.find("<td>slot mmc0 SDR104 4-bit</td>", header);
    const auto reader = page.find("<td>USB 2.0 reader, usb-storage</td>", header);
    ASSERT_NE(slot, std::string::npos);
    ASSERT_NE(reader, std::string::npos);
    EXPECT_LT(slot, reader);
    EXPECT_LT(reader, page.find("</table>", table));
    // Bundles that record no attachment keep the page as it was.
    EXPECT_EQ(html_report(build_report({other("laptop")}), {}).find("Attachment"), std::string::npos);
}

TEST(ReportSameCard, OnTwoHostsOneRowTwoColumns)
{
    const Report r = build_report({in_reader("laptop", "1a2b3c4d"), in_slot("Pi 4", "1a2b3c4d")});
    const Group& g = r.groups[0];
    EXPECT_EQ(g.cards, (std::vector<std::string>{"16GB"})) << "the first bundle opens the row and names it";
    EXPECT_EQ(g.hosts, (std::vector<std::string>{"laptop", "Pi 4"}));
    EXPECT_EQ(g.cell[0][0], 0);
    EXPECT_EQ(g.cell[0][1], 1);
}

TEST(ReportSameCard, BundlesWithoutAttachmentsKeepTheirTables)
{
    const Report r = build_report({other("laptop")});
    EXPECT_EQ(text_report(r, false).find("Attachment"), std::string::npos);
}

TEST(ReportSameCard, TheDatabaseKeepsTheAttachmentAndTheReader)
{
    const auto old_db = mmc::test::old_store(3); // the schema before version 4
    const std::string& path = old_db.path;
    auto store = open_store(path, false);
    EXPECT_EQ(schema_version(store->connection()), current_schema_version());
    Bundle b = in_reader("laptop", "1a2b3c4d");
    b.reader["driver"] = "usb-storage";
    b.reader["speed_mbit"] = 480.0;
    b.reader["ceiling_mb_s"] = 40.0;
    ASSERT_EQ(store->ingest("reader.json", to_json(b).dump()).outcome, Outcome::stored);
    const auto rows = store->connection().query(
        "SELECT attachment, card_sectors, partition_table_id, reader_chip, reader_usb_id, reader_driver, reader_speed_mbit, "
        "reader_ceiling_mb_s FROM bundles WHERE source_path = 'reader.json'");
    ASSERT_EQ(rows.size(), 1u);
    std::vector<std::string> got;
    for (const auto& v : rows[0]) got.push_back(v ? *v : "NULL");
    EXPECT_EQ(got, (std::vector<std::string>{"USB 2.0 reader, usb-storage", "31116288", "1a2b3c4d", "Genesys Logic GL827L", "05e3:0723",
                                             "usb-storage", "480.0", "40.0"}));
    const auto old = store->connection().query("SELECT coalesce(attachment, 'NULL') FROM bundles WHERE source_path = 'old.json'");
    ASSERT_EQ(old.size(), 1u);
    EXPECT_EQ(*old[0][0], "NULL") << "rows stored before keep their new columns empty";
    store.reset();
    std::filesystem::remove_all(old_db.dir);
}
