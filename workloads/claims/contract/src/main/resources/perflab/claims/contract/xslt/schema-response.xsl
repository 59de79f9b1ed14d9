<?xml version="1.0" encoding="UTF-8"?>
<!-- transform-schema, response: ClaimServices' createClaimResponse to the partner's FirstNoticeOfLossAck. The
     TrackingRef comes from the mediation's context (parameter trackingRef), not from the back end. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:fn="urn:perflab:partner:fnol" xmlns:cs="urn:perflab:claims:v1"
                xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" exclude-result-prefixes="cs">
  <xsl:output method="xml" encoding="UTF-8" omit-xml-declaration="yes" indent="no"/>
  <xsl:param name="trackingRef"/>

  <xsl:template match="/">
    <soap:Envelope><soap:Body><xsl:apply-templates select="soap:Envelope/soap:Body/cs:createClaimResponse"/></soap:Body></soap:Envelope>
  </xsl:template>

  <xsl:template match="cs:createClaimResponse">
    <fn:FirstNoticeOfLossAck>
      <fn:TrackingRef><xsl:value-of select="$trackingRef"/></fn:TrackingRef>
      <fn:ClaimRef state="{cs:status}" policy="{cs:policyNumber}"><xsl:value-of select="cs:claimNumber"/></fn:ClaimRef>
      <fn:HandledBy service="{cs:received/cs:service}" messageId="{cs:requestId}" channel="{cs:received/cs:channel}"
                    namespace="{cs:received/cs:namespace}" items="{cs:received/cs:lines}" remarks="{cs:received/cs:notes}"/>
      <fn:Trail count="{cs:itemCount}">
        <xsl:for-each select="cs:history/cs:entry">
          <fn:Step at="{cs:at}" by="{cs:by}" event="{cs:event}"><xsl:value-of select="cs:detail"/></fn:Step>
        </xsl:for-each>
      </fn:Trail>
    </fn:FirstNoticeOfLossAck>
  </xsl:template>
</xsl:stylesheet>
