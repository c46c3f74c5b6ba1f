// The table of SoC-level host limits. One row per controller compatible;
// a row applies only to a node whose most specific (first) compatible it
// names. Sources are the SoC's .dtsi in mainline Linux, where the SoC's own
// max-frequency lives (a board .dts that includes it may lower or raise it:
// a live value that differs is the board's), the controller's binding, or a public report
// that showed the controller running faster than a board's setting (then
// clock_is_limit is false: the figure is a floor of what it can do).
#include "bus/soc_limits.h"

#include <array>

namespace mmc::bus {

namespace {

// Verified against mainline Linux (torvalds/linux, 2025-2026 trees); the
// .dtsi renames (rk3399-base, rk356x-base, rk3588-base) came in 2024, so
// older kernels name the file in parentheses. dw_mmc has no HS400: its best
// modes are SDR104 (SD, 4 bits) and HS200 (eMMC, 8 bits).
constexpr std::array<SocLimit, 18> table{{
    {"rockchip,rk3288-dw-mshc", "", "RK3288 SD/SDIO/eMMC (dw_mmc)", 150e6, true, {Mode::sdr104, Mode::hs200}, 8,
     "arch/arm/boot/dts/rockchip/rk3288.dtsi: max-frequency = <150000000> on sdmmc, sdio0/1, emmc",
     false, false, {}, {}, {}},
    {"rockchip,rk3308-dw-mshc", "", "RK3308 SD/SDIO/eMMC (dw_mmc)", 150e6, true, {Mode::sdr104, Mode::hs200}, 8,
     "arch/arm64/boot/dts/rockchip/rk3308.dtsi: max-frequency = <150000000> on sdmmc, emmc, sdio",
     false, false, {}, {}, {}},
    {"rockchip,rk3328-dw-mshc", "", "RK3328 SD/SDIO/eMMC (dw_mmc)", 150e6, true, {Mode::sdr104, Mode::hs200}, 8,
     "arch/arm64/boot/dts/rockchip/rk3328.dtsi: max-frequency = <150000000> on sdmmc, sdio, emmc",
     false, false, {}, {}, {}},
    {"rockchip,rk3368-dw-mshc", "", "RK3368 SD/SDIO/eMMC (dw_mmc)", 150e6, true, {Mode::sdr104, Mode::hs200}, 8,
     "arch/arm64/boot/dts/rockchip/rk3368.dtsi: max-frequency = <150000000> on sdmmc, sdio0, emmc",
     false, false, {}, {}, {}},
    {"rockchip,rk3399-dw-mshc", "", "RK3399 SD/SDIO (dw_mmc)", 150e6, true, {.sd = Mode::sdr104}, 4,
     "arch/arm64/boot/dts/rockchip/rk3399-base.dtsi (rk3399.dtsi in older kernels): max-frequency = <150000000> on "
     "sdio0, sdmmc",
     false, false, {}, {}, {}},
    {"rockchip,rk3399-sdhci-5.1", "", "RK3399 eMMC (Arasan SDHCI 5.1)", 200e6, true, {.mmc = Mode::hs400es}, 8,
     "arch/arm64/boot/dts/rockchip/rk3399-base.dtsi: assigned-clock-rates = <200000000> on the sdhci node's SCLK_EMMC "
     "(it has no max-frequency); drivers/mmc/host/sdhci-of-arasan.c gives arasan,sdhci-5.1 HS400 enhanced strobe",
     false, false, {}, {}, {}},
    // The RK3528's SD slot is set lower than the same controller's SDIO
    // nodes: the slot's own row first, by its unit address.
    {"rockchip,rk3528-dw-mshc", "ffc30000", "RK3528 SD slot (dw_mmc)", 150e6, true, {.sd = Mode::sdr104}, 4,
     "arch/arm64/boot/dts/rockchip/rk3528.dtsi: max-frequency = <150000000> on sdmmc (mmc@ffc30000)",
     false, false, {}, {}, {}},
    {"rockchip,rk3528-dw-mshc", "", "RK3528 SD/SDIO (dw_mmc)", 200e6, true, {.sd = Mode::sdr104}, 4,
     "arch/arm64/boot/dts/rockchip/rk3528.dtsi: max-frequency = <200000000> on sdio0, sdio1 (<150000000> on sdmmc)",
     false, false, {}, {}, {}},
    {"rockchip,rk3568-dw-mshc", "", "RK3566/RK3568 SD/SDIO (dw_mmc)", 150e6, true, {.sd = Mode::sdr104}, 4,
     "arch/arm64/boot/dts/rockchip/rk356x-base.dtsi (rk356x.dtsi in older kernels): max-frequency = <150000000> on "
     "sdmmc0/1/2",
     false, false, {}, {}, {}},
    {"rockchip,rk3588-dw-mshc", "", "RK3588 SD/SDIO (dw_mmc)", 200e6, true, {.sd = Mode::sdr104}, 4,
     "arch/arm64/boot/dts/rockchip/rk3588-base.dtsi (rk3588s.dtsi in older kernels): max-frequency = <200000000> on "
     "sdmmc, sdio",
     false, false, {}, {}, {}},
    {"rockchip,rk3588-dwcmshc", "", "RK3588 eMMC (DWC MSHC)", 200e6, true, {.mmc = Mode::hs400es}, 8,
     "arch/arm64/boot/dts/rockchip/rk3588-base.dtsi: max-frequency = <200000000> on sdhci, with the emmc_bus8 and "
     "emmc_data_strobe pins",
     false, false, {}, {}, {}},
    // The report below is the SM8550's: its node lists "qcom,sm8550-sdhci"
    // first, and a row applies only to a node's first compatible.
    {"qcom,sm8550-sdhci", "", "Qualcomm SM8550 SDHCI (sdhci-msm v5)", 202e6, false, {.sd = Mode::sdr104}, 4,
     "a report, not a limit: the AYN Odin 2 (SM8550) microSD ran SDR104 at 202 MHz without errors once its board DT's "
     "37.5 MHz clamp was removed (ROCKNIX/distribution#2933)",
     false, false, {}, {}, {}},
    {"qcom,sdhci-msm-v5", "", "Qualcomm SDHCI (sdhci-msm v5)", 202e6, false, {.sd = Mode::sdr104}, 4,
     "a report, not a limit: the AYN Odin 2 (SM8550) microSD ran SDR104 at 202 MHz without errors once its board DT's "
     "37.5 MHz clamp was removed (ROCKNIX/distribution#2933); the qcom,sdhci-msm.yaml binding example has a 202 MHz OPP",
     false, false, {}, {}, {}},
    // The G12A/G12B/SM1 (S905X2, A311D, S905X3) SD and eMMC controllers
    // (meson-gx-mmc). meson-g12-common.dtsi sets no max-frequency: each board
    // file sets its own, so the figure is a floor of what the controller does.
    {"amlogic,meson-axg-mmc", "", "Amlogic G12/SM1 SD/eMMC (meson-gx-mmc)", 200e6, false,
     {.sd = Mode::sdr104, .mmc = Mode::hs200}, 8,
     "a report, not a limit: arch/arm64/boot/dts/amlogic/meson-sm1-odroid.dtsi (Odroid-C4, the same S905X3) gives "
     "sd_emmc_b max-frequency = <200000000> and sd-uhs-sdr104, and sd_emmc_c mmc-hs200-1_8v at 200 MHz on 8 bits; "
     "meson-g12-common.dtsi sets no max-frequency on these nodes",
     false, false, {}, {}, {}},
    // Not in mainline: vendor kernels (openEuler, deepin) carry the driver.
    {"phytium,mci", "", "Phytium E2000 SD/MMC (phytium,mci, vendor driver)", 100e6, false, {.sd = Mode::sdr104}, 4,
     "a report, not a limit: the E2000Q demo board ran SDR104 at 100 MHz after its max-frequency was raised "
     "from 50 MHz, doubling reads (the Phytium entry of tests/data/ios.json)",
     false, false, {}, {}, {}},
    // The Raspberry Pi SD slots. The Pi 3's sdhost driver offers SD high speed
    // only; the Pi 4's EMMC2 and the Pi 5's SDHCI take their UHS modes from
    // the controller, which is why their device trees name none (Pi 4) or
    // repeat them (Pi 5).
    // Its driver sets MMC_HIGHSPEED and no DDR or HS200 cap: an eMMC on an
    // SD adapter in this slot runs MMC high speed at most (raspberrypi/linux#7120).
    {"brcm,bcm2835-sdhost", "", "the Raspberry Pi's SD host (BCM2835 sdhost, sdhost-bcm2835)", 50e6, true,
     {.sd = Mode::hs, .mmc = Mode::mmc_hs}, 4,
     "drivers/mmc/host/bcm2835.c: caps SD_HIGHSPEED and MMC_HIGHSPEED, no UHS mode and no 1.8 V switch (debugfs caps "
     "0xc0000027 in the Pi lab, kernel 6.1); the Pi 1-3 and Zero SD slots have 3.3 V I/O only; raspberrypi/linux#7120 "
     "shows a Pi 3B+ at 50 MHz actual from its 400 MHz source clock",
     true, true,
     "it has no UHS-I mode, so every card runs SD high speed: 50 MHz on 4 bits, 25 MB/s on the bus, about 22 MB/s of "
     "reads once commands take their share - the limit most Raspberry Pi benchmarks report",
     "no card runs faster in this slot (a faster card still helps random I/O and writes); for faster sequential reads "
     "use a Pi 4 or 5, or a USB reader (USB 2 on a Pi 3: about 35 MB/s)",
     ""},
    {"brcm,bcm2711-emmc2", "", "the Raspberry Pi 4's SD host (BCM2711 EMMC2, sdhci-iproc)", 100e6, false, {.sd = Mode::ddr50}, 4,
     "Raspberry Pi 4 ios dumps (tests/data/ios.json): UHS-I DDR50 at 50 MHz and 1.8 V; the bcm2711-rpi-4-b device tree "
     "names no sd-uhs-* mode (sdhci reads the controller's capability register) and gives vqmmc-supply a 1.8-3.3 V "
     "regulator; its firmware log shows a 100 MHz EMMC2 source clock (raspberrypi/firmware#1953), and SDR104 was asked "
     "for and not added (raspberrypi/linux#5044)",
     true, true,
     "it runs UHS-I up to DDR50 (50 MHz, both clock edges, 50 MB/s on the bus) and not SDR104: its source clock is "
     "100 MHz, below SDR104's 208 MHz",
     "no card runs faster than DDR50 in this slot; a Pi 5 (SDR104) or a USB 3 UHS-I reader can",
     "on a Raspberry Pi, sdhci.debug_quirks2=4 on the kernel command line (/proc/cmdline) sets SDHCI_QUIRK2_NO_1_8_V and "
     "keeps every card at 3.3 V high speed, half of DDR50; remove it if the card is stable without"},
    {"brcm,bcm2712-sdhci", "", "the Raspberry Pi 5's SD host (BCM2712 SDHCI, sdhci-brcmstb)", 200e6, false, {.sd = Mode::sdr104}, 4,
     "Documentation/devicetree/bindings/mmc/brcm,sdhci-brcmstb.yaml (brcm,bcm2712-sdhci); the Pi 5's SD node names "
     "sd-uhs-sdr104 and a 200 MHz base clock; raspberrypi/linux#7103: the Pi 5 runs SDR104 and plateaus near 90 MB/s",
     true, true, "", "",
     "on a Raspberry Pi, sdhci.debug_quirks2=4 on the kernel command line (/proc/cmdline) keeps every card at 3.3 V "
     "high speed; an SDR104 card that falls back to DDR50 or SDR50 shows tuning errors in the kernel log"},
}};

bool unit_address_matches(const SocLimit& row, const DeviceTree& dt)
{
    if (row.unit_address.empty()) return true;
    const auto at = dt.node.rfind('@');
    return at != std::string::npos && std::string_view(dt.node).substr(at + 1) == row.unit_address;
}

} // namespace

// Only the most specific compatible names the controller: the fallbacks
// after it promise a programming model the driver can use (the devicetree
// specification, 2.3.1 "compatible"; the rk3288-dw-mshc after rk3308's, the
// sdhci-msm-v5 after sm8550's), not the same modes, clocks or wiring.
const SocLimit* soc_limit(const DeviceTree& dt)
{
    if (dt.compatible.empty()) return nullptr;
    for (const auto& row : table)
        if (row.compatible == dt.compatible.front() && unit_address_matches(row, dt)) return &row;
    return nullptr;
}

} // namespace mmc::bus
