"""PDF/X-1a for an offset printer, and the reading direction of a book bound on the right, set on a
reportlab canvas before it is saved.

Contracts
---------
* **PDF/X-1a:2001** (:func:`mark_pdfx`): the document catalog gets an ``OutputIntents`` array with one
  ``/GTS_PDFX`` intent naming a printing condition registered with the ICC (``JC200103``, Japan Color
  2001 Coated, by default; ``FOGRA39``, ``CGATS TR 001`` (SWOP) are others), so no ICC profile is
  embedded; the document information gets ``GTS_PDFXVersion`` ``PDF/X-1:2001``,
  ``GTS_PDFXConformance`` ``PDF/X-1a:2001`` and ``Trapped`` ``/False``. What the standard asks of the
  pages is the book's already: every colour DeviceGray (K), every font embedded, a TrimBox on every
  page, no transparency (reportlab writes PDF 1.3, which has none).
* **Right-to-left** (:func:`mark_right_to_left`): ``ViewerPreferences /Direction /R2L``, so a viewer
  shows the spreads of a book bound on the right (右綴じ) in its reading order.
"""

from __future__ import annotations

from typing import Any

#: Registered printing conditions (ICC characterization registry) and their descriptions.
CONDITIONS: dict[str, str] = {
    "JC200103": "Japan Color 2001 Coated",
    "FOGRA39": "Coated FOGRA39 (ISO 12647-2:2004)",
    "CGATS TR 001": "SWOP (CGATS TR 001)",
    "FOGRA51": "PSO Coated v3 (FOGRA51)",
}
PDFX_VERSION = "PDF/X-1:2001"
PDFX_CONFORMANCE = "PDF/X-1a:2001"


def _add_catalog_key(catalog: Any, key: str, value: Any) -> None:
    """Set ``key`` on reportlab's document catalog so that it is written (the catalog writes only the
    keys it lists)."""
    if key not in catalog.__NoDefault__:
        catalog.__NoDefault__ = [*catalog.__NoDefault__, key]  # an instance list: the class's stays as it was
        catalog.__Refs__ = [k for k in catalog.__Refs__ if k != key]
    setattr(catalog, key, value)


def mark_pdfx(canvas: Any, condition: str = "JC200103") -> None:
    """Make the document a PDF/X-1a:2001 file (module docstring): its OutputIntent and version keys."""
    from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFString

    intent = PDFDictionary({
        "Type": PDFName("OutputIntent"), "S": PDFName("GTS_PDFX"),
        "OutputConditionIdentifier": PDFString(condition), "RegistryName": PDFString("http://www.color.org"),
        "Info": PDFString(CONDITIONS.get(condition, condition)),
    })
    _add_catalog_key(canvas._doc.Catalog, "OutputIntents", PDFArray([intent]))
    info = canvas._doc.info
    info.__class__ = _pdfx_info_class(info.__class__)
    info.trapped = "False"


def _pdfx_info_class(base: type) -> type:
    """A subclass of reportlab's document information that adds the PDF/X version keys."""

    class PdfXInfo(base):
        def format(self, document: Any) -> Any:
            from reportlab.pdfbase.pdfdoc import PDFDate, PDFDictionary, PDFName, PDFString

            d = {"Title": PDFString(self.title), "Author": PDFString(self.author),
                 "CreationDate": PDFDate(ts=document._timeStamp, dateFormatter=self._dateFormatter),
                 "ModDate": PDFDate(ts=document._timeStamp, dateFormatter=self._dateFormatter),
                 "Producer": PDFString(self.producer), "Creator": PDFString(self.creator),
                 "Subject": PDFString(self.subject), "Keywords": PDFString(self.keywords),
                 "Trapped": PDFName(self.trapped), "GTS_PDFXVersion": PDFString(PDFX_VERSION),
                 "GTS_PDFXConformance": PDFString(PDFX_CONFORMANCE)}
            return PDFDictionary(d).format(document)

    return PdfXInfo


def mark_right_to_left(canvas: Any) -> None:
    """A book bound on the right: its viewer preference ``Direction`` is ``R2L``."""
    from reportlab.pdfbase.pdfdoc import PDFName

    canvas.setViewerPreference("Direction", PDFName("R2L"))
